package dev.tarn.connector.lookup;

import java.io.IOException;
import java.util.Collection;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;

/**
 * A synchronous lookup join against a Tarn table: each lookup on the task thread. Public because
 * Flink runs only public function classes; made by {@link TarnLookupJoin}.
 */
public final class TarnLookupFunction extends LookupFunction {

    private static final long serialVersionUID = 1L;

    private final RefreshingLookup lookup;

    TarnLookupFunction(RefreshingLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        lookup.open(context);
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) throws IOException {
        return lookup.get(keyRow);
    }

    @Override
    public void close() throws Exception {
        lookup.close();
    }
}
