package io.dsched.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * Reads from Linux's {@code /proc} how much CPU the worker JVMs, the database server and the whole
 * machine used between two moments: on a machine whose cores the nodes share with the database,
 * the CPU spent per fire is what bounds a saturated run. Elsewhere it reads nothing.
 */
final class CpuMeter {

    /** Linux reports process times in clock ticks of 1/100 s on every common platform. */
    private static final double MILLIS_PER_TICK = 10;

    private static final Set<String> DATABASE_PROCESSES = Set.of("postgres", "mariadbd", "mysqld");

    private CpuMeter() {}

    /**
     * Reads the CPU used so far.
     * @param workers the worker JVMs
     * @return the reading, or {@code null} without {@code /proc}
     */
    static Reading read(List<WorkerProcess> workers) {
        if (!Files.isReadable(Path.of("/proc/stat"))) {
            return null;
        }
        try {
            long jvm = 0;
            long compilers = 0;
            for (WorkerProcess worker : workers) {
                jvm += ticks(worker.pid());
                compilers += compilerTicks(worker.pid());
            }
            long database = 0;
            try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
                for (Path process : processes.toList()) {
                    String name = process.getFileName().toString();
                    if (name.chars().allMatch(Character::isDigit) && isDatabase(process)) {
                        database += ticksWithEndedChildren(Long.parseLong(name));
                    }
                }
            }
            String[] cpu =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < cpu.length; i++) {
                total += Long.parseLong(cpu[i]);
            }
            // idle and iowait
            long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
            return new Reading(jvm, compilers, database, total, idle);
        } catch (IOException | RuntimeException ex) {
            return null;
        }
    }

    /**
     * @param usages the runs' usages
     * @param value what of each to show
     * @return the median and (min–max), to two decimals, or {@code n/a} with no usage
     */
    static String spread(List<Usage> usages, ToDoubleFunction<Usage> value) {
        if (usages.isEmpty()) {
            return "n/a";
        }
        List<Double> values = usages.stream().map(value::applyAsDouble).toList();
        return String.format(
                Locale.ROOT,
                "%.2f (%.2f–%.2f)",
                Stats.median(values),
                values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    private static boolean isDatabase(Path process) {
        try {
            return DATABASE_PROCESSES.contains(
                    Files.readString(process.resolve("comm")).strip());
        } catch (IOException ex) {
            // the process ended meanwhile
            return false;
        }
    }

    /**
     * User and system time of a JVM's JIT compiler threads, in clock ticks; 0 if it has ended. Their
     * work is a cost of the JVM's warm-up, which a long-running node pays once.
     */
    private static long compilerTicks(long pid) {
        long ticks = 0;
        try (Stream<Path> threads = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path thread : threads.toList()) {
                try {
                    String stat = Files.readString(thread.resolve("stat"));
                    if (isCompilerThread(stat)) {
                        ticks += ownTicks(stat);
                    }
                } catch (IOException ex) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException ex) {
            return 0;
        }
        return ticks;
    }

    /**
     * @param stat a thread's {@code /proc/<pid>/task/<tid>/stat} line
     * @return whether it is one of HotSpot's JIT compiler threads (C1 or C2), whose names Linux
     *     cuts to 15 characters
     */
    static boolean isCompilerThread(String stat) {
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /** User and system time of one process, in clock ticks; 0 if it has ended. */
    private static long ticks(long pid) {
        String stat = stat(pid);
        return (stat != null) ? ownTicks(stat) : 0;
    }

    /**
     * User and system time of one database process and of its children that have ended and been
     * waited for: PostgreSQL ends a backend when its connection closes, and a sum over the live
     * processes alone would drop that backend's time and could even fall between two readings.
     */
    private static long ticksWithEndedChildren(long pid) {
        String stat = stat(pid);
        return (stat != null) ? ownTicks(stat) + endedChildrenTicks(stat) : 0;
    }

    private static String stat(long pid) {
        try {
            return Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        } catch (IOException ex) {
            return null;
        }
    }

    /**
     * @param stat a process's {@code /proc/<pid>/stat} line
     * @return its user and system time (utime, stime), in clock ticks
     */
    static long ownTicks(String stat) {
        String[] fields = fieldsAfterName(stat);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * @param stat a process's {@code /proc/<pid>/stat} line
     * @return the user and system time of its children that ended and were waited for (cutime,
     *     cstime), in clock ticks
     */
    static long endedChildrenTicks(String stat) {
        String[] fields = fieldsAfterName(stat);
        return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }

    /** The fields after the command name, which is in parentheses and may hold spaces. */
    private static String[] fieldsAfterName(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /**
     * A reading and when it was taken, to count what started after it.
     *
     * @param from the reading, or {@code null} without {@code /proc}
     * @param fromMillis when, in epoch milliseconds
     */
    record Window(Reading from, long fromMillis) {

        /**
         * @param workers the worker JVMs
         * @return a window that starts now
         */
        static Window open(List<WorkerProcess> workers) {
            long now = System.currentTimeMillis();
            return new Window(read(workers), now);
        }
    }

    /**
     * CPU used so far, in clock ticks.
     *
     * @param jvm by the worker JVMs
     * @param compilers by the worker JVMs' JIT compiler threads, part of {@code jvm}
     * @param database by the database server's processes
     * @param machine by all cores, idle included
     * @param idle idle (and waiting for I/O), all cores
     */
    record Reading(long jvm, long compilers, long database, long machine, long idle) {

        /**
         * What was used between an earlier reading and this one.
         * @param before the earlier reading
         * @param fires the fires run in between
         * @return the usage
         */
        Usage since(Reading before, long fires) {
            long machineTicks = this.machine - before.machine;
            double busy = (machineTicks > 0) ? 1 - (this.idle - before.idle) / (double) machineTicks : 0;
            return new Usage(
                    (this.jvm - before.jvm) * MILLIS_PER_TICK / fires,
                    (this.compilers - before.compilers) * MILLIS_PER_TICK / fires,
                    (this.database - before.database) * MILLIS_PER_TICK / fires,
                    busy);
        }
    }

    /**
     * CPU used per fire, and how busy the machine was.
     *
     * @param jvmMillisPerFire by the worker JVMs
     * @param compilerMillisPerFire by their JIT compiler threads, part of {@code jvmMillisPerFire}
     * @param databaseMillisPerFire by the database server
     * @param machineBusy the share of all cores not idle
     */
    record Usage(
            double jvmMillisPerFire, double compilerMillisPerFire, double databaseMillisPerFire, double machineBusy) {

        /** @return what the worker JVMs used per fire beside their JIT compilers */
        double jvmWithoutCompilersMillisPerFire() {
            return this.jvmMillisPerFire - this.compilerMillisPerFire;
        }
    }
}
