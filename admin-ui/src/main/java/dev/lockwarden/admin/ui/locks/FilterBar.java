package dev.lockwarden.admin.ui.locks;

import java.util.List;

import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;

import dev.lockwarden.admin.service.LockQuery;

/** Name-prefix and application filters; calls back after the user stops typing. */
final class FilterBar extends HorizontalLayout {
    private final TextField prefix = new TextField("Name prefix");
    private final TextField application = new TextField("Application");

    FilterBar(Runnable onChange) {
        prefix.setId("filter-prefix");
        application.setId("filter-application");
        for (TextField f : List.of(prefix, application)) {
            f.setClearButtonVisible(true);
            f.setValueChangeMode(ValueChangeMode.LAZY);
            f.addValueChangeListener(e -> onChange.run());
        }
        add(prefix, application);
    }

    LockQuery query() {
        return new LockQuery(prefix.getValue(), application.getValue());
    }
}
