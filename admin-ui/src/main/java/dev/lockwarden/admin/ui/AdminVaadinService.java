package dev.lockwarden.admin.ui;

import com.vaadin.flow.di.Instantiator;
import com.vaadin.flow.function.DeploymentConfiguration;
import com.vaadin.flow.server.VaadinServlet;
import com.vaadin.flow.server.VaadinServletService;
import java.util.Map;

/** Vaadin service whose instantiator is {@link ServiceInstantiator}. */
final class AdminVaadinService extends VaadinServletService {
    private final transient Map<Class<?>, Object> services;

    AdminVaadinService(VaadinServlet servlet, DeploymentConfiguration configuration, Map<Class<?>, Object> services) {
        super(servlet, configuration);
        this.services = services;
    }

    @Override
    protected Instantiator createInstantiator() {
        return new ServiceInstantiator(this, services);
    }
}
