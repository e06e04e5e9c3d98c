package dev.tarn.format.commit;

/**
 * Writing a snapshot failed in a way that leaves unknown whether it was published. The caller must
 * not delete the commit's files; a retry that skips already-committed identifiers resolves it.
 */
public class CommitStateUnknownException extends RuntimeException {

    public CommitStateUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
