package dev.lockwarden.admin.ui;

import java.util.Map;

import com.vaadin.flow.function.DeploymentConfiguration;
import com.vaadin.flow.server.ServiceException;
import com.vaadin.flow.server.VaadinServlet;
import com.vaadin.flow.server.VaadinServletService;

/**
 * The dashboard's Vaadin servlet: hands the application's services to views through their
 * constructors and puts every view behind the login.
 */
public final class AdminServlet extends VaadinServlet {
    private final transient Map<Class<?>, Object> services;

    /** @param services objects views may take as constructor parameters, by type */
    public AdminServlet(Map<Class<?>, Object> services) {
        this.services = Map.copyOf(services);
    }

    @Override
    protected VaadinServletService createServletService(DeploymentConfiguration configuration) throws ServiceException {
        AdminVaadinService service = new AdminVaadinService(this, configuration, services);
        service.init();
        service.addUIInitListener(e -> e.getUI().addBeforeEnterListener(new LoginGuard()));
        return service;
    }
}
