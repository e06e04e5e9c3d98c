package dev.tarn.format;

import dev.tarn.format.table.TableContext;

/**
 * The format's tests reach behind the {@link Table} façade through here: its context, and with it
 * the managers, reader and commit step that callers outside the format never see.
 */
public final class TableInternals {

    private TableInternals() {}

    public static TableContext context(Table table) {
        return table.context();
    }
}
