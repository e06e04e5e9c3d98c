package dev.tarn.format.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

class StripedReadWriteLockTest {

    /**
     * Whether the read lock can be taken at once by each of {@code threads} new threads (threads
     * made in turn take the stripes in turn, so eight of them cover every stripe); each releases
     * what it took.
     */
    private static List<Boolean> readersGetIn(StripedReadWriteLock lock, int threads)
            throws Exception {
        List<Boolean> got = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            got.add(
                    CompletableFuture.supplyAsync(
                                    () -> {
                                        Lock read = lock.readLock();
                                        boolean in = read.tryLock();
                                        if (in) {
                                            read.unlock();
                                        }
                                        return in;
                                    },
                                    r -> new Thread(r).start())
                            .get());
        }
        return got;
    }

    @Test
    void aWriterExcludesTheReadersOfEveryThread() throws Exception {
        StripedReadWriteLock lock = new StripedReadWriteLock();

        lock.writeLock().lock();
        List<Boolean> whileWriting = readersGetIn(lock, 8);
        lock.writeLock().unlock();

        assertThat(whileWriting)
                .as("readers let in while a writer holds the lock")
                .containsOnly(false);
        assertThat(readersGetIn(lock, 8))
                .as("readers let in after the writer left")
                .containsOnly(true);
    }

    @Test
    void readersOfSeveralThreadsHoldItAtOnceAndKeepTheWriterOut() throws Exception {
        StripedReadWriteLock lock = new StripedReadWriteLock();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread reader =
                new Thread(
                        () -> {
                            lock.readLock().lock();
                            holding.countDown();
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            } finally {
                                lock.readLock().unlock();
                            }
                        });
        reader.start();
        holding.await();

        boolean writerWhileRead = lock.writeLock().tryLock();
        // The failed attempt released the stripes it had taken: every other reader still gets in.
        List<Boolean> othersWhileRead = readersGetIn(lock, 8);
        release.countDown();
        reader.join();
        boolean writerAfter = lock.writeLock().tryLock();

        assertThat(writerWhileRead).as("writer let in while a reader holds the lock").isFalse();
        assertThat(othersWhileRead).as("other readers let in beside a reader").containsOnly(true);
        assertThat(writerAfter).as("writer let in once the reader left").isTrue();
        lock.writeLock().unlock();
    }

    @Test
    void theWriterMayTakeTheReadLockAndEachKindIsReentrant() {
        StripedReadWriteLock lock = new StripedReadWriteLock();

        lock.writeLock().lock();
        lock.writeLock().lock();
        boolean readWhileWriting = lock.readLock().tryLock();
        lock.readLock().unlock();
        lock.writeLock().unlock();
        lock.writeLock().unlock();
        lock.readLock().lock();
        boolean readAgain = lock.readLock().tryLock();
        lock.readLock().unlock();
        lock.readLock().unlock();

        assertThat(readWhileWriting).isTrue();
        assertThat(readAgain).isTrue();
        assertThat(lock.writeLock().tryLock()).as("free at the end").isTrue();
    }
}
