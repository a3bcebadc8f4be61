package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.benchmarks.LimitOvershoot.Call;
import io.dsched.benchmarks.LimitOvershoot.LimitResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** What W6 reports of a run: the most bodies at once, the most starts in a second, and the overshoot. */
class LimitOvershootTests {

    @Test
    void theMostAtOnceIsTheMostCallsOverlappingAtOneMoment() {
        List<Call> calls = List.of(
                new Call("0", 0, 100),
                new Call("1", 10, 60),
                new Call("2", 20, 30),
                new Call("3", 50, 200),
                new Call("4", 150, 160));

        // 0, 1 and 2 at 20 to 30; 0, 1 and 3 at 50 to 60; 3 and 4 at 150
        assertThat(LimitOvershoot.mostAtOnce(calls)).isEqualTo(3);
    }

    @Test
    void aCallThatEndsAsAnotherStartsIsNotBesideIt() {
        List<Call> waves = new ArrayList<>();
        for (int wave = 0; wave < 4; wave++) {
            for (int slot = 0; slot < 5; slot++) {
                waves.add(new Call(wave + "-" + slot, wave * 50_000L, (wave + 1) * 50_000L));
            }
        }

        assertThat(LimitOvershoot.mostAtOnce(waves)).isEqualTo(5);
        assertThat(LimitOvershoot.mostAtOnce(List.of(new Call("0", 0, 10), new Call("1", 9, 20))))
                .isEqualTo(2);
    }

    @Test
    void theMostAtOnceOfCallsInAnyOrderIsTheSame() {
        List<Call> calls =
                List.of(new Call("3", 50, 200), new Call("0", 0, 100), new Call("4", 150, 160), new Call("1", 10, 60));

        // 0, 1 and 3 at 50 to 60
        assertThat(LimitOvershoot.mostAtOnce(calls)).isEqualTo(3);
        assertThat(LimitOvershoot.mostAtOnce(List.of())).isZero();
    }

    @Test
    void theMostStartsInAWindowCountsFromEachStartUpToNotIncludingItsEnd() {
        // a burst of 100 at once, then one every 10 ms: 100 at 0, then at 10 ms, 20 ms, ...
        List<Long> starts = new ArrayList<>();
        LongStream.range(0, 100).forEach((i) -> starts.add(0L));
        LongStream.rangeClosed(1, 900).forEach((i) -> starts.add(i * 10_000));

        // [0, 1 s): the burst and the 99 from 10 ms to 990 ms
        assertThat(LimitOvershoot.mostStartsWithin(starts, 1_000_000)).isEqualTo(199);
        assertThat(LimitOvershoot.mostStartsWithin(List.of(0L, 1_000_000L), 1_000_000))
                .isEqualTo(1);
        assertThat(LimitOvershoot.mostStartsWithin(List.of(0L, 999_999L), 1_000_000))
                .isEqualTo(2);
    }

    @Test
    void theBusiestWindowNeedNotBeTheFirst() {
        List<Long> starts = List.of(5_000_000L, 0L, 2_100_000L, 2_500_000L, 2_900_000L, 3_099_999L, 3_100_000L);

        assertThat(LimitOvershoot.mostStartsWithin(starts, 1_000_000)).isEqualTo(4);
        assertThat(LimitOvershoot.mostStartsWithin(List.of(), 1_000_000)).isZero();
    }

    @Test
    void theOvershootIsWhatGoesOverTheBoundAndNeverLessThanNothing() {
        assertThat(LimitOvershoot.overshoot(30, 5)).isEqualTo(25);
        assertThat(LimitOvershoot.overshoot(5, 5)).isZero();
        assertThat(LimitOvershoot.overshoot(3, 5)).isZero();
        assertThat(LimitOvershoot.overshoot(214, 200)).isEqualTo(14);
    }

    @Test
    void theRateBoundIsAFullBucketsBurstAndTheRefillOfOneWindow() {
        assertThat(LimitShape.RATE_LIMIT).isEqualTo("100/1s");
        assertThat(LimitShape.RATE.bound()).isEqualTo(200);
        assertThat(LimitShape.CONCURRENCY.bound()).isEqualTo(5);
    }

    @Test
    void theLeastTimeTheLimitAllowsIsWavesOfCallsOrTheBurstThenTheRate() {
        // 200 waves of 5 calls of 50 ms: the last wave starts 199 × 50 ms after the first
        assertThat(LimitShape.CONCURRENCY.leastSeconds(1000, 50)).isEqualTo(9.95);
        assertThat(LimitShape.CONCURRENCY.leastSeconds(1001, 50)).isEqualTo(10.0);
        // 100 at once, then 900 at 100 a second
        assertThat(LimitShape.RATE.leastSeconds(1000, 50)).isEqualTo(9.0);
        assertThat(LimitShape.RATE.leastSeconds(80, 50)).isZero();
    }

    @Test
    void aRunCountsJobsRunMissingAndDuplicatesAndMeasuresEveryBodyItRan() {
        List<Call> calls = List.of(
                new Call("0", 0, 50_000),
                new Call("1", 0, 50_000),
                new Call("1", 10_000, 60_000),
                new Call("2", 20_000, 70_000),
                new Call("3", 2_000_000, 2_050_000));

        LimitResult concurrency = LimitResult.of(calls, 5, LimitShape.CONCURRENCY);
        assertThat(concurrency.run()).isEqualTo(4);
        assertThat(concurrency.missing()).isEqualTo(1);
        assertThat(concurrency.duplicates()).isEqualTo(1);
        assertThat(concurrency.most())
                .as("the second run of job 1 is a body at once too")
                .isEqualTo(4);
        assertThat(concurrency.overshoot()).isZero();
        assertThat(concurrency.firstToLastSeconds()).isEqualTo(2.0);

        LimitResult rate = LimitResult.of(calls, 5, LimitShape.RATE);
        assertThat(rate.most()).isEqualTo(4);
        assertThat(rate.overshoot()).isZero();
    }
}
