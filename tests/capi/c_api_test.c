/* Tests every function of the C API, including every error path, from C11
 * (compiled as C, linked against libzonepath_c.so). Runs under ASan/UBSan
 * and LeakSanitizer in CI (./run.sh test, build-asan).
 * usage: zonepath_c_api_test SCRATCH_DIR */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zonepath/zonepath.h>

static int failures = 0;

#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error %s: %s\n", \
              __FILE__, __LINE__, #cond,                              \
              zonepath_status_name(zonepath_last_error()),            \
              zonepath_last_error_message());                         \
      ++failures;                                                     \
    }                                                                 \
  } while (0)

#define CHECK_OK(call) CHECK((call) == ZONEPATH_OK)

/* The call fails with `code`, and the thread's last error holds that code
 * and a message containing `text`. */
#define CHECK_ERROR(call, code, text)                                   \
  do {                                                                  \
    zonepath_status s_ = (call);                                        \
    CHECK(s_ == (code));                                                \
    CHECK(zonepath_last_error() == (code));                             \
    if (strstr(zonepath_last_error_message(), (text)) == NULL) {        \
      fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, \
              __LINE__, zonepath_last_error_message(), (text));         \
      ++failures;                                                       \
    }                                                                   \
  } while (0)

enum { kW = 96, kH = 64 };
static uint8_t costs[kW * kH];

/* A room map: open ground of cost 1, a band of cost 3, a wall with a gap,
 * and an enclosed pocket (unreachable from outside). */
static void MakeCosts(void) {
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      uint8_t c = 1;
      if (x >= 20 && x < 26) c = 3;
      if (x == 48 && y != 5) c = 0;
      if ((x == 80 || x == 90) && y >= 50 && y <= 60) c = 0;
      if ((y == 50 || y == 60) && x >= 80 && x <= 90) c = 0;
      costs[y * kW + x] = c;
    }
  }
}

static const int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int kDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

static uint8_t CostAt(const uint8_t* grid, int x, int y) {
  if (x < 0 || y < 0 || x >= kW || y >= kH) return 0;
  return grid[y * kW + x];
}

/* Walks runs from `start` over `grid`: every step legal (in bounds,
 * passable, no corner cutting); returns the summed step cost (-1 if
 * illegal) and the end cell. */
static double Walk(const uint8_t* grid, zonepath_point start,
                   const zonepath_run* runs, size_t n, zonepath_point* end) {
  int x = start.x, y = start.y;
  double cost = 0;
  for (size_t i = 0; i < n; ++i) {
    if (runs[i].direction > 7 || runs[i].count == 0) return -1;
    const int dx = kDx[runs[i].direction], dy = kDy[runs[i].direction];
    for (uint32_t k = 0; k < runs[i].count; ++k) {
      const uint8_t from = CostAt(grid, x, y),
                    to = CostAt(grid, x + dx, y + dy);
      if (from == 0 || to == 0) return -1;
      if (dx != 0 && dy != 0 &&
          (CostAt(grid, x + dx, y) == 0 || CostAt(grid, x, y + dy) == 0)) {
        return -1;
      }
      cost += (from + to) / 2.0 * (dx != 0 && dy != 0 ? sqrt(2.0) : 1.0);
      x += dx;
      y += dy;
    }
  }
  end->x = x;
  end->y = y;
  return cost;
}

static int WriteText(const char* path, const char* text) {
  FILE* f = fopen(path, "wb");
  if (f == NULL) return 0;
  fputs(text, f);
  return fclose(f) == 0;
}

static void TestVersionAndErrors(void) {
  CHECK(strstr(zonepath_version(), "zonepath C API 1.3 ") != NULL);
  CHECK(zonepath_api_version() ==
        ((ZONEPATH_C_VERSION_MAJOR << 16) | ZONEPATH_C_VERSION_MINOR));
  CHECK(strcmp(zonepath_status_name(ZONEPATH_OK), "OK") == 0);
  CHECK(strcmp(zonepath_status_name(ZONEPATH_DATA_LOSS), "DATA_LOSS") == 0);
  CHECK(strcmp(zonepath_status_name(ZONEPATH_BUFFER_TOO_SMALL),
               "BUFFER_TOO_SMALL") == 0);
  CHECK(strcmp(zonepath_status_name(77), "UNKNOWN_STATUS") == 0);
  for (int code = 0; code <= 16; ++code) {
    CHECK(strcmp(zonepath_status_name(code), "UNKNOWN_STATUS") != 0);
  }
  /* Init functions ignore NULL and fill defaults. */
  zonepath_build_params_init(NULL);
  zonepath_plan_options_init(NULL);
  zonepath_build_params params;
  zonepath_build_params_init(&params);
  CHECK(params.struct_size == sizeof params && params.zone_size == 32 &&
        params.levels == 0 && params.connectivity == 8);
  zonepath_plan_options options;
  zonepath_plan_options_init(&options);
  CHECK(options.struct_size == sizeof options && options.smooth == 0 &&
        options.fewer_turns == 1 && options.direct_search_zones == 1.0 &&
        options.abstract_weight == 1.0);
  /* Freeing NULL is a no-op. */
  zonepath_world_free(NULL);
  zonepath_planner_free(NULL);
  zonepath_cursor_free(NULL);
  zonepath_store_free(NULL);
}

static zonepath_world* TestBuild(const char* dir) {
  zonepath_world* world = NULL;
  zonepath_build_params params;
  zonepath_build_params_init(&params);
  params.zone_size = 16;
  params.threads = 1;

  CHECK_ERROR(zonepath_world_build(NULL, 0, kW, kH, &params, &world),
              ZONEPATH_INVALID_ARGUMENT, "costs is NULL");
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &params, NULL),
              ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, 0, kH, &params, &world),
              ZONEPATH_INVALID_ARGUMENT, "zonepath_world_build");
  CHECK_ERROR(zonepath_world_build(costs, 10, kW, kH, &params, &world),
              ZONEPATH_INVALID_ARGUMENT, "costs_size is 10");
  zonepath_build_params bad = params;
  bad.struct_size = 0;
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params->struct_size is 0");
  bad = params;
  bad.connectivity = 6;
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params->connectivity is 6");
  bad = params;
  bad.threads = -1;
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params->threads is -1");
  bad = params;
  bad.zone_size = 3;
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params: zone size");
  bad = params;
  bad.beacon_spacing = 1;
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params: beacon spacing");
  CHECK(world == NULL);
  /* A caller compiled before beacon_spacing existed: the field (here
   * garbage) is past its struct_size and not read. */
  bad.struct_size = (uint32_t)offsetof(zonepath_build_params, beacon_spacing);
  CHECK(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world) ==
        ZONEPATH_OK);
  zonepath_world_free(world);
  world = NULL;

  /* From a .map file: missing, malformed (message names file and line),
   * then a good one. */
  char path[1024];
  CHECK_ERROR(zonepath_world_build_from_map(NULL, NULL, &world),
              ZONEPATH_INVALID_ARGUMENT, "map_path is NULL");
  snprintf(path, sizeof path, "%s/c_api_test_missing.map", dir);
  CHECK_ERROR(zonepath_world_build_from_map(path, NULL, NULL),
              ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  CHECK(zonepath_world_build_from_map(path, NULL, &world) != ZONEPATH_OK);
  CHECK(strstr(zonepath_last_error_message(), "c_api_test_missing.map"));
  snprintf(path, sizeof path, "%s/c_api_test_bad.map", dir);
  CHECK(WriteText(path, "type octile\nheight 2\nwidth 3\nmap\n...\n.?.\n"));
  CHECK(zonepath_world_build_from_map(path, NULL, &world) ==
        ZONEPATH_INVALID_ARGUMENT);
  CHECK(strstr(zonepath_last_error_message(), "c_api_test_bad.map:6"));
  bad.zone_size = 3;
  snprintf(path, sizeof path, "%s/c_api_test_good.map", dir);
  CHECK(WriteText(path,
                  "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n"
                  "....\n"));
  CHECK_ERROR(zonepath_world_build_from_map(path, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params: zone size");
  CHECK_OK(zonepath_world_build_from_map(path, NULL, &world));
  CHECK(world != NULL);
  zonepath_world_info info;
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_world_get_info(world, &info));
  CHECK(info.width == 4 && info.height == 3 && info.levels >= 1);
  zonepath_world_free(world);
  world = NULL;

  CHECK_OK(zonepath_world_build(costs, sizeof costs, kW, kH, &params, &world));
  CHECK(zonepath_last_error() == ZONEPATH_OK);
  CHECK(strcmp(zonepath_last_error_message(), "") == 0);
  return world;
}

static void TestWorld(zonepath_world* world, const char* dir) {
  zonepath_world_info info;
  CHECK_ERROR(zonepath_world_get_info(NULL, &info), ZONEPATH_INVALID_ARGUMENT,
              "world is NULL");
  CHECK_ERROR(zonepath_world_get_info(world, NULL), ZONEPATH_INVALID_ARGUMENT,
              "info is NULL");
  info.struct_size = 4;
  CHECK_ERROR(zonepath_world_get_info(world, &info), ZONEPATH_INVALID_ARGUMENT,
              "info->struct_size is 4");
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_world_get_info(world, &info));
  CHECK(info.width == kW && info.height == kH && info.levels >= 1 &&
        info.zone_size == 16 && info.connectivity == 8 && info.version == 0 &&
        info.memory_bytes >= sizeof costs && info.owned_bytes > 0);

  /* Costs: size query, too small, bad buffers, the bytes themselves. */
  size_t needed = 0;
  CHECK_OK(zonepath_world_costs(world, NULL, 0, &needed));
  CHECK(needed == sizeof costs);
  uint8_t* copy = malloc(needed);
  CHECK_ERROR(zonepath_world_costs(world, copy, needed - 1, &needed),
              ZONEPATH_BUFFER_TOO_SMALL, "needed");
  CHECK(needed == sizeof costs);
  CHECK_ERROR(zonepath_world_costs(world, NULL, 5, &needed),
              ZONEPATH_INVALID_ARGUMENT, "capacity is 5");
  CHECK_ERROR(zonepath_world_costs(world, NULL, 0, NULL),
              ZONEPATH_INVALID_ARGUMENT, "both NULL");
  CHECK_ERROR(zonepath_world_costs(NULL, copy, needed, NULL),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  CHECK_OK(zonepath_world_costs(world, copy, needed, NULL));
  CHECK(memcmp(copy, costs, sizeof costs) == 0);

  /* Save and load: errors name the file; a round trip keeps the world. */
  char path[1024];
  snprintf(path, sizeof path, "%s/c_api_test.zpw", dir);
  CHECK_ERROR(zonepath_world_save(NULL, path), ZONEPATH_INVALID_ARGUMENT,
              "world is NULL");
  CHECK_ERROR(zonepath_world_save(world, NULL), ZONEPATH_INVALID_ARGUMENT,
              "path is NULL");
  CHECK(zonepath_world_save(world, "/nonexistent_dir/x.zpw") != ZONEPATH_OK);
  CHECK(strstr(zonepath_last_error_message(), "/nonexistent_dir/x.zpw"));
  CHECK_OK(zonepath_world_save(world, path));
  zonepath_world* loaded = NULL;
  CHECK_ERROR(zonepath_world_load(NULL, &loaded), ZONEPATH_INVALID_ARGUMENT,
              "path is NULL");
  CHECK_ERROR(zonepath_world_load(path, NULL), ZONEPATH_INVALID_ARGUMENT,
              "out is NULL");
  CHECK_ERROR(zonepath_world_load("/nonexistent_dir/x.zpw", &loaded),
              ZONEPATH_NOT_FOUND, "/nonexistent_dir/x.zpw");
  char junk[1024];
  snprintf(junk, sizeof junk, "%s/c_api_test_junk.zpw", dir);
  CHECK(WriteText(junk,
                  "this is not a world file, but it is long enough to "
                  "hold a header of sixty-four bytes or so."));
  CHECK(zonepath_world_load(junk, &loaded) != ZONEPATH_OK);
  CHECK(strstr(zonepath_last_error_message(), "c_api_test_junk.zpw"));
  CHECK(loaded == NULL);
  CHECK_OK(zonepath_world_load(path, &loaded));
  zonepath_world_info loaded_info;
  loaded_info.struct_size = sizeof loaded_info;
  CHECK_OK(zonepath_world_get_info(loaded, &loaded_info));
  CHECK(loaded_info.width == kW && loaded_info.height == kH &&
        loaded_info.zone_size == 16);
  memset(copy, 0, needed);
  CHECK_OK(zonepath_world_costs(loaded, copy, needed, &needed));
  CHECK(memcmp(copy, costs, sizeof costs) == 0);
  zonepath_world_free(loaded);
  free(copy);
}

/* Plans start -> goal and checks the path: legal, from start to goal, cost
 * as walked, runs and cells agreeing. Returns its cost (-1 on failure). */
static double CheckedFindPath(zonepath_planner* planner, const uint8_t* grid,
                              zonepath_point start, zonepath_point goal,
                              const zonepath_plan_options* options) {
  zonepath_outcome outcome = ZONEPATH_UNREACHABLE;
  if (zonepath_planner_find_path(planner, start, goal, options, &outcome) !=
      ZONEPATH_OK) {
    CHECK(0);
    return -1;
  }
  CHECK(outcome == ZONEPATH_FOUND);
  zonepath_path_info info;
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_planner_path_info(planner, &info));
  size_t n_runs = 0, n_cells = 0;
  CHECK_OK(zonepath_planner_path_runs(planner, NULL, 0, &n_runs));
  CHECK_OK(zonepath_planner_path_cells(planner, NULL, 0, &n_cells));
  CHECK((int64_t)n_runs == info.runs && (int64_t)n_cells == info.steps + 1);
  zonepath_run* runs = malloc((n_runs + 1) * sizeof *runs);
  zonepath_point* cells = malloc(n_cells * sizeof *cells);
  CHECK_OK(zonepath_planner_path_runs(planner, runs, n_runs, &n_runs));
  CHECK_OK(zonepath_planner_path_cells(planner, cells, n_cells, NULL));
  zonepath_point end = {-1, -1};
  const double walked = Walk(grid, info.start, runs, n_runs, &end);
  CHECK(info.start.x == start.x && info.start.y == start.y);
  CHECK(end.x == goal.x && end.y == goal.y);
  CHECK(walked >= 0 && fabs(walked - info.cost) <= 1e-9 * (1 + walked));
  CHECK(cells[0].x == start.x && cells[0].y == start.y);
  CHECK(cells[n_cells - 1].x == goal.x && cells[n_cells - 1].y == goal.y);
  for (size_t i = 1; i < n_cells; ++i) {
    CHECK(abs(cells[i].x - cells[i - 1].x) <= 1 &&
          abs(cells[i].y - cells[i - 1].y) <= 1);
  }
  free(runs);
  free(cells);
  return info.cost;
}

static void TestPlanner(zonepath_world* world) {
  zonepath_planner* planner = NULL;
  CHECK_ERROR(zonepath_planner_create(NULL, &planner),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  CHECK_ERROR(zonepath_planner_create(world, NULL), ZONEPATH_INVALID_ARGUMENT,
              "out is NULL");
  CHECK_OK(zonepath_planner_create(world, &planner));

  const zonepath_point start = {2, 60}, goal = {93, 3};
  zonepath_outcome outcome;
  zonepath_plan_options options;
  zonepath_plan_options_init(&options);
  CHECK_ERROR(zonepath_planner_find_path(NULL, start, goal, NULL, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  CHECK_ERROR(zonepath_planner_find_path(planner, start, goal, NULL, NULL),
              ZONEPATH_INVALID_ARGUMENT, "outcome is NULL");
  const zonepath_point negative = {-1, 3}, outside = {kW, 3}, wall = {48, 20};
  CHECK_ERROR(
      zonepath_planner_find_path(planner, negative, goal, NULL, &outcome),
      ZONEPATH_INVALID_ARGUMENT, "start (-1,3)");
  CHECK_ERROR(
      zonepath_planner_find_path(planner, start, negative, NULL, &outcome),
      ZONEPATH_INVALID_ARGUMENT, "goal (-1,3)");
  CHECK_ERROR(
      zonepath_planner_find_path(planner, outside, goal, NULL, &outcome),
      ZONEPATH_INVALID_ARGUMENT, "zonepath_planner_find_path: ");
  CHECK_ERROR(zonepath_planner_find_path(planner, start, wall, NULL, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "zonepath_planner_find_path: ");
  zonepath_plan_options bad = options;
  bad.struct_size = 1;
  CHECK_ERROR(zonepath_planner_find_path(planner, start, goal, &bad, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "options->struct_size is 1");
  bad = options;
  bad.direct_search_zones = -2;
  CHECK_ERROR(zonepath_planner_find_path(planner, start, goal, &bad, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "direct_search_zones");
  /* Unreachable: the enclosed pocket. Not an error; an empty path. */
  const zonepath_point pocket = {85, 55};
  CHECK_OK(zonepath_planner_find_path(planner, start, pocket, NULL, &outcome));
  CHECK(outcome == ZONEPATH_UNREACHABLE);
  zonepath_path_info info;
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_planner_path_info(planner, &info));
  CHECK(info.steps == 0 && info.runs == 0);

  const double plain = CheckedFindPath(planner, costs, start, goal, NULL);
  options.smooth = 1;
  const double smooth = CheckedFindPath(planner, costs, start, goal, &options);
  CHECK(plain > 0 && smooth > 0 && smooth <= plain + 1e-9);
  /* A weighted abstract search (1.2): legal (CheckedFindPath walks it),
   * out of range refused by name. A 1.1 caller's options end before
   * abstract_weight: accepted with the default weight, whatever lies past
   * its struct_size. */
  options.smooth = 0;
  options.abstract_weight = 2.0;
  CHECK(CheckedFindPath(planner, costs, start, goal, &options) > 0);
  bad = options;
  bad.abstract_weight = 0.5;
  CHECK_ERROR(zonepath_planner_find_path(planner, start, goal, &bad, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "abstract_weight 0.5");
  bad.struct_size = (uint32_t)offsetof(zonepath_plan_options, abstract_weight);
  CHECK(CheckedFindPath(planner, costs, start, goal, &bad) == plain);
  bad.struct_size -= 1;
  CHECK_ERROR(zonepath_planner_find_path(planner, start, goal, &bad, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "options->struct_size is");
  options.abstract_weight = 1.0;
  CHECK(CheckedFindPath(planner, costs, start, start, NULL) == 0);

  /* Stats, path info and buffers: every error path. */
  zonepath_plan_stats stats;
  stats.struct_size = sizeof stats;
  CHECK_OK(zonepath_planner_get_stats(planner, &stats));
  CHECK_ERROR(zonepath_planner_get_stats(NULL, &stats),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  CHECK_ERROR(zonepath_planner_get_stats(planner, NULL),
              ZONEPATH_INVALID_ARGUMENT, "stats is NULL");
  stats.struct_size = 0;
  CHECK_ERROR(zonepath_planner_get_stats(planner, &stats),
              ZONEPATH_INVALID_ARGUMENT, "stats->struct_size is 0");
  CheckedFindPath(planner, costs, start, goal, NULL);
  stats.struct_size = sizeof stats;
  CHECK_OK(zonepath_planner_get_stats(planner, &stats));
  CHECK(stats.expanded > 0 && stats.generated > 0 && stats.time_us >= 0);
  CHECK(stats.used_direct ? stats.top_level == 0 : stats.top_level >= 1);
  /* A 1.0 caller's struct ends before top_level: accepted, and the library
   * writes nothing past its struct_size. */
  stats.top_level = -7;
  stats.struct_size = (uint32_t)offsetof(zonepath_plan_stats, top_level);
  CHECK_OK(zonepath_planner_get_stats(planner, &stats));
  CHECK(stats.top_level == -7 && stats.expanded > 0);
  stats.struct_size = (uint32_t)offsetof(zonepath_plan_stats, top_level) - 1;
  CHECK_ERROR(zonepath_planner_get_stats(planner, &stats),
              ZONEPATH_INVALID_ARGUMENT, "stats->struct_size is");
  CHECK_ERROR(zonepath_planner_path_info(NULL, &info),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  CHECK_ERROR(zonepath_planner_path_info(planner, NULL),
              ZONEPATH_INVALID_ARGUMENT, "info is NULL");
  size_t needed = 0;
  zonepath_run one_run[1];
  zonepath_point one_cell[1];
  CHECK_ERROR(zonepath_planner_path_runs(NULL, NULL, 0, &needed),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  CHECK_ERROR(zonepath_planner_path_runs(planner, one_run, 0, &needed),
              ZONEPATH_BUFFER_TOO_SMALL, "runs holds 0 elements");
  CHECK(needed > 1);
  CHECK_ERROR(zonepath_planner_path_runs(planner, NULL, 3, &needed),
              ZONEPATH_INVALID_ARGUMENT, "runs is NULL but capacity is 3");
  CHECK_ERROR(zonepath_planner_path_cells(NULL, NULL, 0, &needed),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  CHECK_ERROR(zonepath_planner_path_cells(planner, one_cell, 1, &needed),
              ZONEPATH_BUFFER_TOO_SMALL, "cells holds 1 elements");
  CHECK_ERROR(zonepath_planner_path_cells(planner, NULL, 0, NULL),
              ZONEPATH_INVALID_ARGUMENT, "both NULL");

  /* Cursor: needs a plan; yields the same moves as find_path (unsmoothed)
   * even through a one-run buffer; goes stale on the next plan. */
  zonepath_cursor* cursor = NULL;
  CHECK_ERROR(zonepath_cursor_create(planner, &cursor),
              ZONEPATH_FAILED_PRECONDITION, "zonepath_planner_plan");
  CHECK_ERROR(zonepath_cursor_create(NULL, &cursor), ZONEPATH_INVALID_ARGUMENT,
              "planner is NULL");
  size_t n_runs = 0;
  CHECK_OK(zonepath_planner_path_runs(planner, NULL, 0, &n_runs));
  zonepath_run* expected = malloc(n_runs * sizeof *expected);
  CHECK_OK(zonepath_planner_path_runs(planner, expected, n_runs, NULL));
  CHECK_ERROR(zonepath_planner_plan(NULL, start, goal, NULL, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  CHECK_ERROR(zonepath_planner_plan(planner, start, wall, NULL, &outcome),
              ZONEPATH_INVALID_ARGUMENT, "zonepath_planner_plan: ");
  CHECK_ERROR(zonepath_cursor_create(planner, &cursor),
              ZONEPATH_FAILED_PRECONDITION, "zonepath_planner_plan");
  CHECK_OK(zonepath_planner_plan(planner, start, goal, NULL, &outcome));
  CHECK(outcome == ZONEPATH_FOUND);
  CHECK_ERROR(zonepath_cursor_create(planner, NULL), ZONEPATH_INVALID_ARGUMENT,
              "out is NULL");
  CHECK_OK(zonepath_cursor_create(planner, &cursor));
  size_t written = 0;
  int done = 0;
  CHECK_ERROR(zonepath_cursor_next(NULL, 8, one_run, 1, &written, &done),
              ZONEPATH_INVALID_ARGUMENT, "cursor is NULL");
  CHECK_ERROR(zonepath_cursor_next(cursor, 8, NULL, 1, &written, &done),
              ZONEPATH_INVALID_ARGUMENT, "runs is NULL");
  CHECK_ERROR(zonepath_cursor_next(cursor, 8, one_run, 1, NULL, &done),
              ZONEPATH_INVALID_ARGUMENT, "written is NULL");
  CHECK_ERROR(zonepath_cursor_next(cursor, 8, one_run, 1, &written, NULL),
              ZONEPATH_INVALID_ARGUMENT, "done is NULL");
  CHECK_ERROR(zonepath_cursor_next(cursor, 8, one_run, 0, &written, &done),
              ZONEPATH_INVALID_ARGUMENT, "capacity is 0");
  CHECK_ERROR(zonepath_cursor_next(cursor, 0, one_run, 1, &written, &done),
              ZONEPATH_INVALID_ARGUMENT, "min_steps is 0");
  /* Collect the moves (merging runs split between chunks). */
  zonepath_run* got = malloc((n_runs + 64) * sizeof *got);
  size_t n_got = 0, calls = 0;
  done = 0;
  while (!done && calls < 100000) {
    ++calls;
    CHECK_OK(zonepath_cursor_next(cursor, 8, one_run, 1, &written, &done));
    if (written == 1) {
      if (n_got > 0 && got[n_got - 1].direction == one_run[0].direction) {
        got[n_got - 1].count += one_run[0].count;
      } else if (n_got < n_runs + 64) {
        got[n_got++] = one_run[0];
      }
    }
  }
  CHECK(done);
  CHECK(n_got == n_runs);
  CHECK(n_got == n_runs && memcmp(got, expected, n_runs * sizeof *got) == 0);
  CHECK_OK(zonepath_cursor_next(cursor, 8, one_run, 1, &written, &done));
  CHECK(written == 0 && done == 1);
  CHECK_OK(zonepath_planner_plan(planner, goal, start, NULL, &outcome));
  CHECK_ERROR(zonepath_cursor_next(cursor, 8, one_run, 1, &written, &done),
              ZONEPATH_FAILED_PRECONDITION, "planned again");
  zonepath_cursor_free(cursor);
  free(got);
  free(expected);
  zonepath_planner_free(planner);
}

static void TestChanges(zonepath_world* world) {
  zonepath_world* next = NULL;
  zonepath_cell_change changes[2] = {{48, 5, 0}, {10, 10, 7}};
  CHECK_ERROR(zonepath_world_apply_changes(NULL, changes, 2, &next),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  CHECK_ERROR(zonepath_world_apply_changes(world, changes, 2, NULL),
              ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  CHECK_ERROR(zonepath_world_apply_changes(world, NULL, 2, &next),
              ZONEPATH_INVALID_ARGUMENT, "changes is NULL but count is 2");
  zonepath_cell_change bad[2] = {{1, 1, 0}, {kW + 5, 1, 0}};
  CHECK_ERROR(zonepath_world_apply_changes(world, bad, 2, &next),
              ZONEPATH_INVALID_ARGUMENT, "change 1");
  bad[1].x = 1;
  bad[1].cost = 300;
  CHECK_ERROR(zonepath_world_apply_changes(world, bad, 2, &next),
              ZONEPATH_INVALID_ARGUMENT, "change 1");
  CHECK(next == NULL);
  /* Closing the gap in the wall cuts the map in two. */
  CHECK_OK(zonepath_world_apply_changes(world, changes, 2, &next));
  zonepath_world_info info;
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_world_get_info(next, &info));
  CHECK(info.version == 1 && info.owned_bytes < info.memory_bytes);
  uint8_t* after = malloc(sizeof costs);
  CHECK_OK(zonepath_world_costs(next, after, sizeof costs, NULL));
  CHECK(after[5 * kW + 48] == 0 && after[10 * kW + 10] == 7);
  zonepath_planner* planner = NULL;
  CHECK_OK(zonepath_planner_create(next, &planner));
  zonepath_outcome outcome;
  const zonepath_point start = {2, 60}, goal = {93, 3};
  CHECK_OK(zonepath_planner_find_path(planner, start, goal, NULL, &outcome));
  CHECK(outcome == ZONEPATH_UNREACHABLE);
  const zonepath_point near = {30, 30};
  CHECK(CheckedFindPath(planner, after, start, near, NULL) > 0);
  /* The old version is unchanged. */
  zonepath_planner* old_planner = NULL;
  CHECK_OK(zonepath_planner_create(world, &old_planner));
  CHECK(CheckedFindPath(old_planner, costs, start, goal, NULL) > 0);
  zonepath_planner_free(old_planner);
  zonepath_planner_free(planner);
  /* Versions share memory but not lifetimes: free the middle one first. */
  zonepath_cell_change reopen = {48, 5, 1};
  zonepath_world* third = NULL;
  CHECK_OK(zonepath_world_apply_changes(next, &reopen, 1, &third));
  zonepath_world_free(next);
  CHECK_OK(zonepath_planner_create(third, &planner));
  CHECK_OK(zonepath_planner_find_path(planner, start, goal, NULL, &outcome));
  CHECK(outcome == ZONEPATH_FOUND);
  zonepath_planner_free(planner);
  zonepath_world_free(third);
  free(after);
}

static void TestStore(zonepath_world* world) {
  zonepath_store* store = NULL;
  CHECK_ERROR(zonepath_store_create(9, &store), ZONEPATH_INVALID_ARGUMENT,
              "codec is 9");
  CHECK_ERROR(zonepath_store_create(ZONEPATH_CODEC_TURNS, NULL),
              ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  zonepath_planner* planner = NULL;
  CHECK_OK(zonepath_planner_create(world, &planner));
  const zonepath_point start = {2, 60}, goal = {93, 3};
  CheckedFindPath(planner, costs, start, goal, NULL);
  size_t n = 0;
  CHECK_OK(zonepath_planner_path_runs(planner, NULL, 0, &n));
  zonepath_run* runs = malloc(n * sizeof *runs);
  CHECK_OK(zonepath_planner_path_runs(planner, runs, n, NULL));
  zonepath_path_info info;
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_planner_path_info(planner, &info));

  for (int codec = ZONEPATH_CODEC_RUN_LENGTH; codec <= ZONEPATH_CODEC_RAW_CELLS;
       ++codec) {
    CHECK_OK(zonepath_store_create(codec, &store));
    CHECK_ERROR(zonepath_store_set(NULL, 1, start, runs, n, -1),
                ZONEPATH_INVALID_ARGUMENT, "store is NULL");
    CHECK_ERROR(zonepath_store_set(store, 1, start, NULL, n, -1),
                ZONEPATH_INVALID_ARGUMENT, "runs is NULL");
    const zonepath_point negative = {-4, 0};
    CHECK_ERROR(zonepath_store_set(store, 1, negative, runs, n, -1),
                ZONEPATH_INVALID_ARGUMENT, "start (-4,0)");
    zonepath_run bad_runs[2] = {{2, 3}, {9, 1}};
    CHECK_ERROR(zonepath_store_set(store, 1, start, bad_runs, 2, -1),
                ZONEPATH_INVALID_ARGUMENT, "runs[1]");
    bad_runs[1].direction = 1;
    bad_runs[1].count = 0;
    CHECK_ERROR(zonepath_store_set(store, 1, start, bad_runs, 2, -1),
                ZONEPATH_INVALID_ARGUMENT, "runs[1]");
    CHECK_OK(zonepath_store_set(store, 1, start, runs, n, -1));
    CHECK_OK(zonepath_store_set(store, 2, start, runs, n, 10));

    /* Read back: the same runs. */
    size_t needed = 0;
    zonepath_point at = {-1, -1};
    CHECK_ERROR(zonepath_store_read(NULL, 1, -1, &at, NULL, 0, &needed),
                ZONEPATH_INVALID_ARGUMENT, "store is NULL");
    CHECK_ERROR(zonepath_store_read(store, 99, -1, &at, NULL, 0, &needed),
                ZONEPATH_NOT_FOUND, "zonepath_store_read: ");
    CHECK_OK(zonepath_store_read(store, 1, -1, &at, NULL, 0, &needed));
    CHECK(needed == n && at.x == start.x && at.y == start.y);
    zonepath_run* back = malloc((n + 1) * sizeof *back);
    CHECK_ERROR(zonepath_store_read(store, 1, -1, NULL, back, n - 1, &needed),
                ZONEPATH_BUFFER_TOO_SMALL, "runs holds");
    CHECK_OK(zonepath_store_read(store, 1, -1, NULL, back, n, &needed));
    CHECK(needed == n && memcmp(back, runs, n * sizeof *runs) == 0);

    int64_t remaining = 0;
    CHECK_ERROR(zonepath_store_remaining(NULL, 1, &remaining),
                ZONEPATH_INVALID_ARGUMENT, "store is NULL");
    CHECK_ERROR(zonepath_store_remaining(store, 1, NULL),
                ZONEPATH_INVALID_ARGUMENT, "steps is NULL");
    CHECK_ERROR(zonepath_store_remaining(store, 99, &remaining),
                ZONEPATH_NOT_FOUND, "zonepath_store_remaining: ");
    CHECK_OK(zonepath_store_remaining(store, 1, &remaining));
    CHECK(remaining == info.steps);
    CHECK_OK(zonepath_store_remaining(store, 2, &remaining));
    CHECK(remaining == 10);

    /* Advance: the position moves along the path. */
    CHECK_ERROR(zonepath_store_advance(NULL, 1, 3), ZONEPATH_INVALID_ARGUMENT,
                "store is NULL");
    CHECK(zonepath_store_advance(store, 1, info.steps + 1) != ZONEPATH_OK);
    CHECK(strstr(zonepath_last_error_message(), "zonepath_store_advance: "));
    CHECK(zonepath_store_advance(store, 99, 1) == ZONEPATH_NOT_FOUND);
    CHECK_OK(zonepath_store_advance(store, 1, 3));
    CHECK_OK(zonepath_store_remaining(store, 1, &remaining));
    CHECK(remaining == info.steps - 3);
    zonepath_point expected_at = start;
    {
      int64_t left = 3;
      for (size_t i = 0; i < n && left > 0; ++i) {
        const int64_t k = left < runs[i].count ? left : runs[i].count;
        expected_at.x += kDx[runs[i].direction] * (int)k;
        expected_at.y += kDy[runs[i].direction] * (int)k;
        left -= k;
      }
    }
    CHECK_OK(zonepath_store_read(store, 1, 5, &at, back, n, &needed));
    CHECK(at.x == expected_at.x && at.y == expected_at.y);

    zonepath_store_stats stats;
    stats.struct_size = sizeof stats;
    CHECK_ERROR(zonepath_store_get_stats(NULL, &stats),
                ZONEPATH_INVALID_ARGUMENT, "store is NULL");
    CHECK_ERROR(zonepath_store_get_stats(store, NULL),
                ZONEPATH_INVALID_ARGUMENT, "stats is NULL");
    stats.struct_size = 3;
    CHECK_ERROR(zonepath_store_get_stats(store, &stats),
                ZONEPATH_INVALID_ARGUMENT, "stats->struct_size is 3");
    stats.struct_size = sizeof stats;
    CHECK_OK(zonepath_store_get_stats(store, &stats));
    CHECK(stats.units == 2 && stats.remaining_steps == info.steps - 3 + 10 &&
          stats.encoded_bytes > 0 && stats.memory_bytes > stats.encoded_bytes);

    CHECK_ERROR(zonepath_store_remove(NULL, 1), ZONEPATH_INVALID_ARGUMENT,
                "store is NULL");
    CHECK_OK(zonepath_store_remove(store, 1));
    CHECK_ERROR(zonepath_store_remove(store, 1), ZONEPATH_NOT_FOUND,
                "unit 1 has no path");
    free(back);
    zonepath_store_free(store);
    store = NULL;
  }
  free(runs);
  zonepath_planner_free(planner);
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  MakeCosts();
  TestVersionAndErrors();
  zonepath_world* world = TestBuild(dir);
  if (world == NULL) {
    fprintf(stderr, "no world: stopping\n");
    return 1;
  }
  TestWorld(world, dir);
  TestPlanner(world);
  TestChanges(world);
  TestStore(world);
  zonepath_world_free(world);
  if (failures > 0) {
    fprintf(stderr, "c_api_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
