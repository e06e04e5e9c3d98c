package dev.tarn.format.io;

import com.fasterxml.jackson.databind.JsonNode;

/** Field access shared by the JSON metadata codecs, with errors that name the missing field. */
public final class JsonNodes {

    public static JsonNode required(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    private JsonNodes() {}
}
