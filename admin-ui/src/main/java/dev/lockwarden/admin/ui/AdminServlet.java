package dev.lockwarden.admin.ui;

import com.vaadin.flow.function.DeploymentConfiguration;
import com.vaadin.flow.server.ServiceException;
import com.vaadin.flow.server.VaadinServlet;
import com.vaadin.flow.server.VaadinServletService;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The dashboard's Vaadin servlet: hands the application's services to views through their
 * constructors and puts every view behind the login.
 */
public final class AdminServlet extends VaadinServlet {
    private final transient Map<Class<?>, Object> services;
    private final transient IdleTimeout idle;

    /**
     * @param services    objects views may take as constructor parameters, by type
     * @param idleTimeout how long a session may go without user activity
     */
    public AdminServlet(Map<Class<?>, Object> services, Duration idleTimeout) {
        this.services = Map.copyOf(services);
        this.idle = new IdleTimeout(idleTimeout, Clock.systemUTC());
    }

    @Override
    protected VaadinServletService createServletService(DeploymentConfiguration configuration) throws ServiceException {
        AdminVaadinService service = new AdminVaadinService(this, configuration, services);
        service.init();
        service.addUIInitListener(e -> {
            e.getUI().addBeforeEnterListener(new LoginGuard());
            idle.install(e.getUI());
        });
        return service;
    }
}
