package dev.tarn.benchmarks;

/**
 * A pipeline's result is wrong (rows missing, duplicated or altered): the benchmark fails instead
 * of reporting how fast it produced it.
 */
final class WrongResultException extends RuntimeException {

    WrongResultException(String message) {
        super(message);
    }
}
