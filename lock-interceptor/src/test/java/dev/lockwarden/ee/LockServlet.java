package dev.lockwarden.ee;

import dev.lockwarden.LockLostException;
import dev.lockwarden.LockNotAcquiredException;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import javax.sql.DataSource;

/** The test's remote control: calls the EJB as a client would and reports what it got, as text. */
@WebServlet("/op")
public class LockServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @EJB
    Transfers transfers;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource db;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String account = req.getParameter("account");
        String answer;
        try {
            answer = switch (req.getParameter("op")) {
                case "setup" -> setup();
                case "deposit" ->
                    "fence=" + transfers.deposit(account, Long.parseLong(req.getParameter("pause")))
                            + " lockedAtCommit=" + Transfers.lockedAtCommit;
                case "deposit-unlocked" -> {
                    transfers.depositUnlocked(account, Long.parseLong(req.getParameter("pause")));
                    yield "done";
                }
                case "reset" -> {
                    Transfers.MAX_ACTIVE.set(0);
                    yield "ok";
                }
                case "lose" -> {
                    transfers.depositAndLoseLock(account);
                    yield "no exception";
                }
                case "hold" -> transfers.hold(account, Long.parseLong(req.getParameter("millis")));
                case "balance" -> Long.toString(transfers.balance(account));
                case "overlap" -> Integer.toString(Transfers.MAX_ACTIVE.get());
                default -> "unknown op";
            };
        } catch (LockNotAcquiredException busy) {
            answer = "busy " + busy.getClass().getName() + " lock=" + busy.lockName();
        } catch (LockLostException lost) {
            answer = "lost " + lost.getClass().getName() + " lock=" + lost.lockName();
        } catch (Exception e) {
            answer = "error " + e;
        }
        resp.setContentType("text/plain");
        resp.getWriter().write(answer);
    }

    private String setup() throws Exception {
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS balance (account VARCHAR(64) PRIMARY KEY, amount BIGINT)");
        }
        return "ok";
    }
}
