package dev.lockwarden.admin.ui.activity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SparklineTest {
    @Test
    void scalesToTheMaximumAndKeepsSmallNonZeroValuesVisible() {
        assertEquals("▁▂▅█", Sparkline.of(List.of(0L, 1L, 50L, 100L)));
        assertEquals("▁▁▁", Sparkline.of(List.of(0L, 0L, 0L)));
        assertEquals("██", Sparkline.of(List.of(7L, 7L)));
        assertEquals("", Sparkline.of(List.of()));
    }
}
