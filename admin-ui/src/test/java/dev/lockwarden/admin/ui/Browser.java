package dev.lockwarden.admin.ui;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Headless Debian Chromium driven by the Debian chromedriver (no Selenium Manager, no downloads). */
public final class Browser implements AutoCloseable {
    static final String CHROMIUM = System.getProperty("lockwarden.test.chromium", "/usr/bin/chromium");
    static final String CHROMEDRIVER = System.getProperty("lockwarden.test.chromedriver", "/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(20);

    public final ChromeDriver driver;
    private String base;

    /** A browser for a dashboard whose address is set later with {@link #base}. */
    public Browser() {
        this(null);
    }

    public Browser(String base) {
        ChromiumCheck.require(CHROMIUM, CHROMEDRIVER);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1700,950");
        this.driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(WAIT);
        this.base = base;
    }

    /** The dashboard's address, ending in a slash. */
    public void base(String base) {
        this.base = base;
    }

    /** A fresh, logged-out start page. */
    public void open(String path) {
        driver.manage().deleteAllCookies();
        driver.get(base + path);
    }

    public void login(String user, String password) {
        open("");
        submitLogin(user, password);
    }

    /** Fills in and sends the login form once it shows (on whatever page sent the browser there). */
    public void submitLogin(String user, String password) {
        WebElement name = waitFor(By.cssSelector("#vaadinLoginUsername input"));
        name.sendKeys(user);
        driver.findElement(By.cssSelector("#vaadinLoginPassword input")).sendKeys(password, Keys.ENTER);
    }

    /** Logs in as a {@link Fixtures#users} user, whose password is {@code <name>-pw}. */
    public void loginAs(String user) {
        login(user, Fixtures.password(user));
    }

    /** The text of every grid cell on the page, in DOM order (header and row cells, spare rows included). */
    public List<String> cells() {
        return driver.findElements(By.cssSelector("vaadin-grid-cell-content")).stream()
                .map(WebElement::getText)
                .toList();
    }

    /** Waits (up to 20 s) until a grid cell reads exactly {@code text}, then returns {@link #cells()}. */
    public List<String> waitCells(String text) {
        new WebDriverWait(driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> cells().contains(text));
        return cells();
    }

    /** Opens a view from the menu ({@code nav-<view>}) and waits for its grid (id {@code <view>}) to show {@code text}. */
    public List<String> openView(String view, String text) {
        driver.findElement(By.id("nav-" + view)).click();
        waitFor(By.id(view));
        return waitCells(text);
    }

    /** The texts of the displayed elements matching {@code by} (the grid keeps stale content in hidden spare rows). */
    public List<String> displayedTexts(By by) {
        return driver.findElements(by).stream()
                .filter(WebElement::isDisplayed)
                .map(WebElement::getText)
                .toList();
    }

    /** Waits until the text of the element with {@code id} starts with {@code prefix}. */
    public void waitText(String id, String prefix) {
        new WebDriverWait(driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.id(id)).getText().startsWith(prefix));
    }

    public WebElement waitFor(By by) {
        return new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(by));
    }

    public WebElement waitVisible(By by) {
        return new WebDriverWait(driver, WAIT).until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** Waits until nothing matching is displayed (the grid keeps stale cell content in hidden spare rows). */
    public void waitGone(By by) {
        new WebDriverWait(driver, WAIT)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElements(by).stream().noneMatch(WebElement::isDisplayed));
    }

    public void screenshot(Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), to, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
