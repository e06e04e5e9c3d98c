package dev.tarn.connector.sink;

import java.io.Serializable;

/**
 * Who commits: a name unique to one planned job, and when it was made. Snapshots record the name
 * and every committable carries it, so a job restored from a checkpoint or savepoint (even into a
 * newly planned job) finds what was already committed for its committables and never commits them
 * twice.
 */
public record CommitUser(String name, long createdMillis) implements Serializable {}
