//===- RuntimePoolTest.cpp - tests for lib/Runtime/tgc_pool.c --*- C++ -*-===//
//
// The thread pool that packages ship: every task runs exactly once, on
// more than one thread when there are several, each thread on its own
// block of the tasks, and the hook works the same with no pool, no
// workers, or no tasks.
//
//===----------------------------------------------------------------------===//

#include "Runtime/tgc_pool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

struct Counts {
  std::vector<std::atomic<int>> runs;
  std::mutex lock;
  std::set<std::thread::id> threads;
  explicit Counts(size_t n) : runs(n) {}
};

void countTask(void *args, ptrdiff_t task) {
  auto *counts = static_cast<Counts *>(args);
  counts->runs[task].fetch_add(1);
  // Long enough that an idle worker picks up a share.
  std::this_thread::sleep_for(std::chrono::microseconds(200));
  std::lock_guard<std::mutex> guard(counts->lock);
  counts->threads.insert(std::this_thread::get_id());
}

bool allOnce(const Counts &counts) {
  for (const std::atomic<int> &runs : counts.runs)
    if (runs.load() != 1)
      return false;
  return true;
}

} // namespace

TEST_CASE("tgc_pool runs every task once, on several threads",
          "[runtime]") {
  tgc_pool *pool = tgc_pool_create(3);
  REQUIRE(pool);
  CHECK(tgc_pool_threads(pool) == 3);
  for (int round = 0; round < 20; ++round) {
    Counts counts(64);
    tgc_pool_parallel_for(pool, 64, countTask, &counts);
    REQUIRE(allOnce(counts));
    if (round == 19)
      CHECK(counts.threads.size() > 1);
  }
  tgc_pool_destroy(pool);
}

TEST_CASE("tgc_pool without workers, tasks or a pool runs on the caller",
          "[runtime]") {
  tgc_pool *single = tgc_pool_create(1);
  REQUIRE(single);
  CHECK(tgc_pool_threads(single) == 1);
  Counts counts(8);
  tgc_pool_parallel_for(single, 8, countTask, &counts);
  CHECK(allOnce(counts));
  CHECK(counts.threads == std::set<std::thread::id>{std::this_thread::get_id()});
  tgc_pool_destroy(single);

  Counts none(8);
  tgc_pool_parallel_for(nullptr, 8, countTask, &none);
  CHECK(allOnce(none));
  tgc_pool_parallel_for(nullptr, 0, countTask, &none);
  CHECK(allOnce(none));
  tgc_pool_destroy(nullptr);
}

TEST_CASE("tgc_pool serves callers on several threads in turn",
          "[runtime]") {
  tgc_pool *pool = tgc_pool_create(2);
  REQUIRE(pool);
  Counts a(32), b(32);
  std::thread other([&] { tgc_pool_parallel_for(pool, 32, countTask, &b); });
  tgc_pool_parallel_for(pool, 32, countTask, &a);
  other.join();
  CHECK(allOnce(a));
  CHECK(allOnce(b));
  tgc_pool_destroy(pool);
}

TEST_CASE("tgc_pool_create(0) starts one thread per CPU", "[runtime]") {
  tgc_pool *pool = tgc_pool_create(0);
  REQUIRE(pool);
  CHECK(tgc_pool_threads(pool) >= 1);
  tgc_pool_destroy(pool);
}

namespace {

/// countTask without the sleep or the thread record.
void countQuickTask(void *args, ptrdiff_t task) {
  static_cast<Counts *>(args)->runs[task].fetch_add(1);
}

} // namespace

// Workers poll for a while after a job before they sleep: jobs back to
// back reach them polling, a job after a long pause must wake them.
TEST_CASE("tgc_pool runs jobs back to back and after its workers sleep",
          "[runtime]") {
  tgc_pool *pool = tgc_pool_create(2);
  REQUIRE(pool);
  for (int job = 0; job < 2000; ++job) {
    Counts counts(4);
    tgc_pool_parallel_for(pool, 4, countQuickTask, &counts);
    REQUIRE(allOnce(counts));
  }
  // Each time well past the polling time (TGC_POOL_SPIN_US, 500 us by
  // default), so the worker sleeps; on a loaded machine it may wake too
  // late for one job's 13 ms of tasks, not for every one of 20.
  bool workerWoke = false;
  for (int attempt = 0; attempt < 20 && !workerWoke; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Counts counts(64);
    tgc_pool_parallel_for(pool, 64, countTask, &counts);
    REQUIRE(allOnce(counts));
    workerWoke = counts.threads.size() == 2;
  }
  CHECK(workerWoke);
  tgc_pool_destroy(pool);
}

// A block counts its tasks in 16 bits: a longer job runs as several.
TEST_CASE("tgc_pool runs a job of more tasks than a block holds",
          "[runtime]") {
  tgc_pool *pool = tgc_pool_create(2);
  REQUIRE(pool);
  const ptrdiff_t count = 3 * 65535 + 7;
  Counts counts(count);
  tgc_pool_parallel_for(pool, count, countQuickTask, &counts);
  CHECK(allOnce(counts));
  tgc_pool_destroy(pool);
}

namespace {

/// Which thread ran each task, and each thread's tasks in the order it ran
/// them.
struct Placement {
  std::mutex lock;
  std::vector<std::thread::id> threadOf;
  std::vector<std::pair<std::thread::id, ptrdiff_t>> order;
  explicit Placement(size_t n) : threadOf(n) {}
};

void placeTask(void *args, ptrdiff_t task) {
  auto *placement = static_cast<Placement *>(args);
  std::this_thread::sleep_for(std::chrono::microseconds(300));
  std::lock_guard<std::mutex> guard(placement->lock);
  placement->threadOf[task] = std::this_thread::get_id();
  placement->order.emplace_back(std::this_thread::get_id(), task);
}

} // namespace

// Each thread owns the same contiguous block of every job and runs it from
// the front; a thread done with its own takes from the back of another's.
// So the caller always runs task 0, and each thread's tasks are a run from
// the front of its block, in order, then a run down from the back of the
// other's (either thread may be the one that finishes first): two kernels
// split alike read on each core what it wrote.
TEST_CASE("tgc_pool gives each thread a contiguous block of the tasks",
          "[runtime]") {
  tgc_pool *pool = tgc_pool_create(2);
  REQUIRE(pool);
  bool workerRan = false;
  const ptrdiff_t count = 8, half = count / 2;
  auto checkOrder = [](const std::vector<ptrdiff_t> &tasks, ptrdiff_t begin,
                       ptrdiff_t end, ptrdiff_t otherEnd) {
    size_t own = 0;
    while (own < tasks.size() && tasks[own] >= begin && tasks[own] < end)
      ++own;
    for (size_t i = 0; i < own; ++i)
      CHECK(tasks[i] == begin + ptrdiff_t(i));
    for (size_t i = own; i < tasks.size(); ++i)
      CHECK(tasks[i] == otherEnd - 1 - ptrdiff_t(i - own));
  };
  for (int job = 0; job < 20; ++job) {
    Placement placement(count);
    tgc_pool_parallel_for(pool, count, placeTask, &placement);
    REQUIRE(placement.order.size() == size_t(count));
    std::thread::id caller = std::this_thread::get_id();
    CHECK(placement.threadOf[0] == caller);
    std::vector<ptrdiff_t> callerTasks, workerTasks;
    for (auto &[thread, task] : placement.order)
      (thread == caller ? callerTasks : workerTasks).push_back(task);
    checkOrder(callerTasks, 0, half, count);
    checkOrder(workerTasks, half, count, half);
    workerRan = workerRan || !workerTasks.empty();
  }
  CHECK(workerRan);
  tgc_pool_destroy(pool);
}
