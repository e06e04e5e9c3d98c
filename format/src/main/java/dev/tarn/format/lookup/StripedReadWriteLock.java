package dev.tarn.format.lookup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A read-write lock whose readers take the read lock of one of several {@link
 * ReentrantReadWriteLock}s, chosen by thread, and whose writer takes the write locks of all of
 * them, in order. The subtasks of a lookup join that share one copy of a table get from the same
 * buckets on their own threads; on one reentrant lock every get of every thread updates the same
 * lock word, whose cache line then moves between their cores at each get (a get took about half
 * again as long with two threads as with one, against a seventh without the lock). Writers (a
 * refresh, a load, a spill) are rare and pay for the stripes instead.
 *
 * <p>Each kind is reentrant as {@link ReentrantReadWriteLock}'s is, and a writer may take the read
 * lock; a reader must not take the write lock. The write lock has no conditions.
 */
final class StripedReadWriteLock implements ReadWriteLock {

    /** Distinct for up to this many threads, which is more than a TaskManager's slots usually. */
    private static final int STRIPES = 8;

    private static final AtomicInteger NEXT_STRIPE = new AtomicInteger();

    /** Each thread's stripe, handed out in turn so that threads made together do not share one. */
    private static final ThreadLocal<Integer> STRIPE =
            ThreadLocal.withInitial(() -> NEXT_STRIPE.getAndIncrement() & (STRIPES - 1));

    private final ReentrantReadWriteLock[] stripes = new ReentrantReadWriteLock[STRIPES];
    private final Lock write = new AllStripes();

    StripedReadWriteLock() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantReadWriteLock();
        }
    }

    @Override
    public Lock readLock() {
        return stripes[STRIPE.get()].readLock();
    }

    @Override
    public Lock writeLock() {
        return write;
    }

    /** The write locks of every stripe, taken in order and released in reverse. */
    private final class AllStripes implements Lock {

        @Override
        public void lock() {
            for (ReentrantReadWriteLock stripe : stripes) {
                stripe.writeLock().lock();
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            for (int i = 0; i < STRIPES; i++) {
                try {
                    stripes[i].writeLock().lockInterruptibly();
                } catch (InterruptedException e) {
                    releaseBelow(i);
                    throw e;
                }
            }
        }

        @Override
        public boolean tryLock() {
            for (int i = 0; i < STRIPES; i++) {
                if (!stripes[i].writeLock().tryLock()) {
                    releaseBelow(i);
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            long deadline = System.nanoTime() + unit.toNanos(time);
            for (int i = 0; i < STRIPES; i++) {
                boolean locked;
                try {
                    locked =
                            stripes[i]
                                    .writeLock()
                                    .tryLock(
                                            Math.max(0, deadline - System.nanoTime()),
                                            TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    releaseBelow(i);
                    throw e;
                }
                if (!locked) {
                    releaseBelow(i);
                    return false;
                }
            }
            return true;
        }

        @Override
        public void unlock() {
            releaseBelow(STRIPES);
        }

        private void releaseBelow(int count) {
            for (int i = count - 1; i >= 0; i--) {
                stripes[i].writeLock().unlock();
            }
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException(
                    "The write lock of a striped read-write lock has no conditions");
        }
    }
}
