package dev.tarn.format.commit;

/** A commit cannot apply to the table as it now is (another writer changed what it depends on). */
public class CommitConflictException extends RuntimeException {

    public CommitConflictException(String message) {
        super(message);
    }
}
