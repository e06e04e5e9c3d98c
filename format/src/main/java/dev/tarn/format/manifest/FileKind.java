package dev.tarn.format.manifest;

/** Whether a manifest entry adds a file to the table or deletes it. */
public enum FileKind {
    ADD((byte) 0),
    DELETE((byte) 1);

    private final byte code;

    FileKind(byte code) {
        this.code = code;
    }

    public byte code() {
        return code;
    }

    public static FileKind fromCode(byte code) {
        for (FileKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Unknown file kind code " + code);
    }
}
