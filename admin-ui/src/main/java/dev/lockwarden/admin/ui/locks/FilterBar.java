package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;
import dev.lockwarden.LockSource;
import dev.lockwarden.admin.service.LockQuery;
import java.util.List;

/** Name-prefix, application, source and "orphaned only" filters; calls back after the user stops typing. */
final class FilterBar extends HorizontalLayout {
    private final TextField prefix = new TextField("Name prefix");
    private final TextField application = new TextField("Application");
    private final Select<LockSource> source = new Select<>();
    private final Checkbox orphaned = new Checkbox("Orphaned only");

    FilterBar(Runnable onChange) {
        prefix.setId("filter-prefix");
        application.setId("filter-application");
        source.setId("filter-source");
        orphaned.setId("filter-orphaned");
        for (TextField f : List.of(prefix, application)) {
            f.setClearButtonVisible(true);
            f.setValueChangeMode(ValueChangeMode.LAZY);
            f.addValueChangeListener(e -> onChange.run());
        }
        source.setLabel("Source");
        source.setItems(LockSource.values());
        source.setEmptySelectionAllowed(true);
        source.setEmptySelectionCaption("any");
        source.addValueChangeListener(e -> onChange.run());
        orphaned.addValueChangeListener(e -> onChange.run());
        add(prefix, application, source, orphaned);
        setDefaultVerticalComponentAlignment(Alignment.BASELINE);
    }

    LockQuery query() {
        return new LockQuery(prefix.getValue(), application.getValue(), source.getValue(), orphaned.getValue());
    }
}
