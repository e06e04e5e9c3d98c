/**
 * The Flink side of Tarn: {@link dev.tarn.connector.TarnDynamicTableFactory} (identifier {@code
 * tarn}) makes a table's source ({@code source}) and sink ({@code sink}) from the table it finds,
 * with the connector's own options ({@link dev.tarn.connector.TarnConnectorOptions}; table options
 * are format's). {@link dev.tarn.connector.MetadataRows} is how a catalog hands the factory the
 * rows of a metadata system table.
 *
 * <p>The connector only orchestrates format's two seams: the source plans through {@code
 * TableScan}/{@code StreamScan} and reads through {@code TableRead}; the sink writes through {@code
 * TableWrite} and publishes through {@code TableCommit}. It never touches manifests or data files
 * and never depends on the catalog.
 */
package dev.tarn.connector;
