/* Tests every function of the C API, including every error path, from C11
 * (compiled as C, linked against libzonepath_c.so). Runs under ASan/UBSan
 * and LeakSanitizer in CI (./run.sh test, build-asan).
 * usage: zonepath_c_api_test SCRATCH_DIR */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
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
  CHECK(strstr(zonepath_version(), "zonepath C API 1.8 ") != NULL);
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
  CHECK(params.struct_size == sizeof params && params.zone_size == 0 &&
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
              ZONEPATH_INVALID_ARGUMENT, "params: zone_size 3 not in 4..1024");
  bad = params;
  bad.beacon_spacing = 1;
  CHECK_ERROR(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world),
              ZONEPATH_INVALID_ARGUMENT, "params: beacon_spacing 1 not 0 or in");
  CHECK(world == NULL);
  /* A caller compiled before beacon_spacing existed: the field (here
   * garbage) is past its struct_size and not read. */
  bad.struct_size = (uint32_t)offsetof(zonepath_build_params, beacon_spacing);
  CHECK(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world) ==
        ZONEPATH_OK);
  zonepath_world_free(world);
  world = NULL;
  /* Connection tables (1.5): on by default; a 1.4 caller's struct keeps
   * the default; 0 builds without them. */
  CHECK(params.connection_tables == 1);
  bad = params;
  bad.connection_tables = 0;
  CHECK_OK(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world));
  zonepath_world_free(world);
  world = NULL;
  bad.struct_size =
      (uint32_t)offsetof(zonepath_build_params, connection_tables);
  CHECK_OK(zonepath_world_build(costs, sizeof costs, kW, kH, &bad, &world));
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
              ZONEPATH_INVALID_ARGUMENT, "params: zone_size 3 not in 4..1024");
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
  /* Free crossings (1.6): a legal path (CheckedFindPath walks it), shorter
   * on this map (138.71 against 140.47); a 1.5 caller's options end before
   * free_crossings: the default (off), whatever lies past its struct_size. */
  CHECK(options.free_crossings == 0);
  options.free_crossings = 1;
  const double free_cost =
      CheckedFindPath(planner, costs, start, goal, &options);
  CHECK(free_cost > 0 && free_cost < plain - 1e-9);
  bad = options;
  bad.struct_size = (uint32_t)offsetof(zonepath_plan_options, free_crossings);
  CHECK(CheckedFindPath(planner, costs, start, goal, &bad) == plain);
  options.free_crossings = 0;

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

/* Smoothing by window searches (1.7), on the room map with its band at
 * cost 1 (on a grid of one cost `smooth` pulls the path tight; weighted
 * grids are always searched): legal paths no longer than unsmoothed, and
 * on this map the searched one is shorter (120.47 against 121.05), so the
 * field reaches the planner. A 1.6 caller's options end where 1.6's
 * padding did (sizeof 40, `reserved` uninitialised): the default, string
 * pulling, whatever lies in that padding or past its struct_size. */
static void TestSmoothBySearch(void) {
  static uint8_t one_cost[kW * kH];
  for (int i = 0; i < kW * kH; ++i) one_cost[i] = costs[i] == 0 ? 0 : 1;
  zonepath_build_params params;
  zonepath_build_params_init(&params);
  params.zone_size = 16;
  params.threads = 1;
  zonepath_world* world = NULL;
  CHECK_OK(zonepath_world_build(one_cost, sizeof one_cost, kW, kH, &params,
                                &world));
  if (world == NULL) return;
  zonepath_planner* planner = NULL;
  CHECK_OK(zonepath_planner_create(world, &planner));
  const zonepath_point start = {2, 60}, goal = {93, 3};
  zonepath_plan_options options;
  zonepath_plan_options_init(&options);
  CHECK(options.smooth_by_search == 0 && options.reserved == 0);
  const double plain = CheckedFindPath(planner, one_cost, start, goal, NULL);
  options.smooth = 1;
  const double pulled =
      CheckedFindPath(planner, one_cost, start, goal, &options);
  options.smooth_by_search = 1;
  const double searched =
      CheckedFindPath(planner, one_cost, start, goal, &options);
  CHECK(pulled > 0 && pulled <= plain + 1e-9);
  CHECK(searched > 0 && searched < pulled - 1e-9);
  zonepath_plan_options old = options;
  old.struct_size = (uint32_t)offsetof(zonepath_plan_options, smooth_by_search);
  CHECK(old.struct_size == 40);
  old.reserved = 0x5a5a5a5a;
  CHECK(CheckedFindPath(planner, one_cost, start, goal, &old) == pulled);
  zonepath_planner_free(planner);
  zonepath_world_free(world);
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
  /* A count no array can have is refused before anything is read. */
  CHECK_ERROR(zonepath_world_apply_changes(world, changes, SIZE_MAX, &next),
              ZONEPATH_INVALID_ARGUMENT, "larger than any array");
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

/* ---- Agent worlds ---------------------------------------------------- */

/* The agent test's map: ground '.', forest 'T' (a band the truck must go
 * around, below it), a wall at x = 30 with a 1-cell gap at y = 5 and a
 * 3-cell gap at y = 30..32, a 1-wide dead end at x = 40, y = 10..20 (open
 * to the south; too narrow to turn in), and an enclosed pocket at the
 * bottom right. */
enum { kAW = 64, kAH = 48 };
static char agent_map[kAH][kAW + 1];

static void MakeAgentMap(void) {
  for (int y = 0; y < kAH; ++y) {
    for (int x = 0; x < kAW; ++x) {
      char c = '.';
      if (x >= 10 && x < 14 && y < 40) c = 'T';
      if (x == 30 && y != 5 && (y < 30 || y > 32)) c = '@';
      if ((x == 52 || x == 60) && y >= 38 && y <= 46) c = '@';
      if ((y == 38 || y == 46) && x >= 52 && x <= 60) c = '@';
      if ((x == 39 || x == 41) && y >= 9 && y <= 20) c = '@';
      if (x == 40 && y == 9) c = '@';
      agent_map[y][x] = c;
    }
    agent_map[y][kAW] = '\0';
  }
}

/* One class of the agent file below, as the C walker needs it. */
typedef struct TestClass {
  const char* name;
  int width, length, connectivity, oriented;
  double ground, forest; /* multipliers; 0 impassable */
  double backward, turn;
} TestClass;

static const TestClass kClasses[] = {
    {"default", 1, 1, 8, 0, 1, 0, 1, 0}, /* type byte = cost; 'T' -> 2 */
    {"walker", 1, 1, 8, 0, 1, 3, 1, 0},  {"truck", 2, 2, 8, 0, 1, 0, 1, 0},
    {"cart", 1, 2, 4, 1, 1, 2, 2, 1.5},  {"barge", 1, 2, 8, 1, 1, 2, 3, 0.5},
};
enum { kClassCount = sizeof kClasses / sizeof kClasses[0] };
static const char kAgentText[] =
    "terrain ground 1 .\n"
    "terrain forest 2 T\n"
    "class walker size 1 connectivity 8 cost ground=1,forest=3\n"
    "class truck size 2 connectivity 8 cost ground=1\n"
    "class cart size 1x2 connectivity 4 cost ground=1,forest=2 oriented yes "
    "backward 2 turn 1.5\n"
    "class barge size 1x2 connectivity 8 cost ground=1,forest=2 oriented yes "
    "backward 3 turn 0.5\n";

/* The class cost of one cell (0 impassable or outside). */
static double CellCost(const TestClass* c, int x, int y) {
  if (x < 0 || y < 0 || x >= kAW || y >= kAH) return 0;
  const char ch = agent_map[y][x];
  if (ch == '@') return 0;
  if (strcmp(c->name, "default") == 0) return ch == 'T' ? 2 : 1;
  return ch == 'T' ? c->forest : c->ground;
}

/* The largest cost under the footprint at (x, y) with `heading` (0 when
 * any covered cell is impassable), as agent_class.h defines coverage. */
static double PositionCost(const TestClass* c, int x, int y, int heading) {
  int w = c->width, h = c->length;
  if (c->oriented) {
    if (heading % 2 == 1) {
      w = h = w > h ? w : h;
    } else if (heading == 2 || heading == 6) {
      const int t = w;
      w = h;
      h = t;
    }
  }
  double worst = 0;
  for (int dy = 0; dy < h; ++dy) {
    for (int dx = 0; dx < w; ++dx) {
      const double cost = CellCost(c, x + dx, y + dy);
      if (cost == 0) return 0;
      if (cost > worst) worst = cost;
    }
  }
  return worst;
}

/* Replays an agent path under the rules of agent_class.h; returns its cost
 * (-1 if a move is illegal) and the end anchor and heading. */
static double WalkAgent(const TestClass* c, zonepath_point start, int heading,
                        const zonepath_agent_run* runs, size_t n,
                        zonepath_point* end, int* end_heading) {
  int x = start.x, y = start.y;
  double cost = 0;
  const int m = c->width > c->length ? c->width : c->length;
  for (size_t i = 0; i < n; ++i) {
    const zonepath_agent_run* r = &runs[i];
    if (r->count == 0 || r->heading > 7) return -1;
    if (r->action == ZONEPATH_AGENT_TURN) {
      if (!c->oriented || (r->rotation != 1 && r->rotation != -1) ||
          r->heading != 0) {
        return -1;
      }
      for (uint32_t k = 0; k < r->count; ++k) {
        /* The m x m square at the anchor must be legal. */
        for (int dy = 0; dy < m; ++dy) {
          for (int dx = 0; dx < m; ++dx) {
            if (CellCost(c, x + dx, y + dy) == 0) return -1;
          }
        }
        heading =
            (heading + r->rotation * (c->connectivity == 4 ? 2 : 1) + 8) % 8;
        cost += c->turn;
      }
      continue;
    }
    if (r->action != ZONEPATH_AGENT_FORWARD &&
        r->action != ZONEPATH_AGENT_BACKWARD) {
      return -1;
    }
    if (r->action == ZONEPATH_AGENT_BACKWARD && !c->oriented) return -1;
    if (c->oriented && (int)r->heading != heading) return -1;
    if (c->connectivity == 4 && r->heading % 2 == 1) return -1;
    if (!c->oriented) heading = (int)r->heading;
    const int d = r->action == ZONEPATH_AGENT_FORWARD
                      ? (int)r->heading
                      : ((int)r->heading + 4) % 8;
    const int dx = kDx[d], dy = kDy[d];
    for (uint32_t k = 0; k < r->count; ++k) {
      const double from = PositionCost(c, x, y, heading),
                   to = PositionCost(c, x + dx, y + dy, heading);
      if (from == 0 || to == 0) return -1;
      if (dx != 0 && dy != 0 &&
          (PositionCost(c, x + dx, y, heading) == 0 ||
           PositionCost(c, x, y + dy, heading) == 0)) {
        return -1;
      }
      double step = (from + to) / 2.0 * (dx != 0 && dy != 0 ? sqrt(2.0) : 1.0);
      if (r->action == ZONEPATH_AGENT_BACKWARD) step *= c->backward;
      cost += step;
      x += dx;
      y += dy;
    }
  }
  end->x = x;
  end->y = y;
  *end_heading = heading;
  return cost;
}

/* Runs of kinds the walker must see at least once (set by
 * CheckedAgentPath). */
static int backward_runs = 0, diagonal_runs = 0;

/* Plans for class `c`, then checks the outcome, the info against the runs,
 * legality, the walked cost and the end state. Returns the cost (-1 if
 * unreachable). */
static double CheckedAgentPath(zonepath_agent_planner* planner,
                               const TestClass* c, zonepath_point start,
                               zonepath_point goal,
                               const zonepath_agent_plan_options* options,
                               zonepath_outcome expected) {
  zonepath_outcome outcome = ZONEPATH_FOUND;
  CHECK_OK(zonepath_agent_planner_find_path(planner, c->name, start, goal,
                                            options, &outcome));
  CHECK(outcome == expected);
  zonepath_agent_path_info info;
  info.struct_size = sizeof info;
  CHECK_OK(zonepath_agent_planner_path_info(planner, &info));
  CHECK(info.start.x == start.x && info.start.y == start.y);
  const int start_heading = options != NULL ? options->start_heading : 0;
  CHECK(info.start_heading == start_heading);
  size_t n = 0;
  CHECK_OK(zonepath_agent_planner_path_runs(planner, NULL, 0, &n));
  CHECK((int64_t)n == info.runs);
  if (expected == ZONEPATH_UNREACHABLE) {
    CHECK(n == 0 && info.steps == 0 && info.turns == 0);
    return -1;
  }
  zonepath_agent_run* runs = malloc((n + 1) * sizeof *runs);
  CHECK_OK(zonepath_agent_planner_path_runs(planner, runs, n, &n));
  int64_t steps = 0, turns = 0;
  for (size_t i = 0; i < n; ++i) {
    if (runs[i].action == ZONEPATH_AGENT_TURN) {
      turns += runs[i].count;
    } else {
      steps += runs[i].count;
      CHECK(runs[i].rotation == 0);
      if (runs[i].action == ZONEPATH_AGENT_BACKWARD) ++backward_runs;
      if (runs[i].heading % 2 == 1) ++diagonal_runs;
    }
  }
  CHECK(steps == info.steps && turns == info.turns);
  zonepath_point end = {-1, -1};
  int end_heading = -1;
  const double walked =
      WalkAgent(c, start, start_heading, runs, n, &end, &end_heading);
  if (walked < 0 || fabs(walked - info.cost) > 1e-6 * (1 + walked) ||
      end.x != goal.x || end.y != goal.y) {
    fprintf(stderr,
            "%s (%d,%d)->(%d,%d): walked %.6f (reported %.6f), ends at "
            "(%d,%d)\n",
            c->name, start.x, start.y, goal.x, goal.y, walked, info.cost, end.x,
            end.y);
    ++failures;
  }
  if (options != NULL && options->goal_heading >= 0) {
    CHECK(end_heading == options->goal_heading);
  }
  free(runs);
  return info.cost;
}

/* Writes the first `keep` bytes of file `from` to `to`; 1 on success. */
static int CopyPrefix(const char* from, const char* to, long keep) {
  FILE* in = fopen(from, "rb");
  if (in == NULL) return 0;
  FILE* out = fopen(to, "wb");
  if (out == NULL) {
    fclose(in);
    return 0;
  }
  int ok = 1;
  for (long i = 0; i < keep && ok; ++i) {
    const int c = fgetc(in);
    ok = c != EOF && fputc(c, out) != EOF;
  }
  fclose(in);
  return fclose(out) == 0 && ok;
}

static void TestAgents(const char* dir) {
  MakeAgentMap();
  char map_path[1024], agents_path[1024], bad_path[1024], world_path[1024],
      cut_path[1024], plain_path[1024];
  snprintf(map_path, sizeof map_path, "%s/c_api_agents.map", dir);
  snprintf(agents_path, sizeof agents_path, "%s/c_api.agents", dir);
  snprintf(bad_path, sizeof bad_path, "%s/c_api_bad.agents", dir);
  snprintf(world_path, sizeof world_path, "%s/c_api_agents.zpa", dir);
  snprintf(cut_path, sizeof cut_path, "%s/c_api_agents_cut.zpa", dir);
  snprintf(plain_path, sizeof plain_path, "%s/c_api_test.zpw", dir);
  {
    FILE* f = fopen(map_path, "wb");
    CHECK(f != NULL);
    if (f == NULL) return;
    fprintf(f, "type octile\nheight %d\nwidth %d\nmap\n", kAH, kAW);
    for (int y = 0; y < kAH; ++y) fprintf(f, "%s\n", agent_map[y]);
    CHECK(fclose(f) == 0);
  }
  CHECK(WriteText(agents_path, kAgentText));
  CHECK(WriteText(bad_path,
                  "terrain ground 1 .\nclass big size 9 cost ground=1\n"));

  zonepath_agent_plan_options_init(NULL);
  zonepath_agent_world_free(NULL);
  zonepath_agent_planner_free(NULL);
  zonepath_agent_plan_options defaults;
  zonepath_agent_plan_options_init(&defaults);
  CHECK(defaults.struct_size == sizeof defaults && defaults.smooth == 0 &&
        defaults.start_heading == 0 && defaults.goal_heading == -1 &&
        defaults.follow_steps == 24 && defaults.follow_margin == 6 &&
        defaults.merge_staircases == 1);

  /* Building. */
  zonepath_build_params params;
  zonepath_build_params_init(&params);
  params.zone_size = 16;
  params.threads = 1;
  zonepath_agent_world* built = NULL;
  CHECK_ERROR(
      zonepath_agent_world_build_from_map(NULL, agents_path, &params, &built),
      ZONEPATH_INVALID_ARGUMENT, "map_path is NULL");
  CHECK_ERROR(
      zonepath_agent_world_build_from_map(map_path, NULL, &params, &built),
      ZONEPATH_INVALID_ARGUMENT, "agents_path is NULL");
  CHECK_ERROR(
      zonepath_agent_world_build_from_map(map_path, agents_path, &params, NULL),
      ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  CHECK_ERROR(
      zonepath_agent_world_build_from_map(map_path, bad_path, &params, &built),
      ZONEPATH_INVALID_ARGUMENT, "zonepath_agent_world_build_from_map: ");
  CHECK(strstr(zonepath_last_error_message(), "c_api_bad.agents:2") != NULL);
  CHECK_ERROR(zonepath_agent_world_build_from_map("/nonexistent_dir/x.map",
                                                  agents_path, &params, &built),
              ZONEPATH_NOT_FOUND, "/nonexistent_dir/x.map");
  params.zone_size = 2;
  CHECK_ERROR(zonepath_agent_world_build_from_map(map_path, agents_path,
                                                  &params, &built),
              ZONEPATH_INVALID_ARGUMENT, "params:");
  params.zone_size = 16;
  params.struct_size = 4;
  CHECK_ERROR(zonepath_agent_world_build_from_map(map_path, agents_path,
                                                  &params, &built),
              ZONEPATH_INVALID_ARGUMENT, "params->struct_size is 4");
  params.struct_size = sizeof params;
  CHECK(built == NULL);
  CHECK_OK(zonepath_agent_world_build_from_map(map_path, agents_path, &params,
                                               &built));
  if (built == NULL) return;
  CHECK_ERROR(zonepath_agent_world_save(built, NULL), ZONEPATH_INVALID_ARGUMENT,
              "path is NULL");
  CHECK_ERROR(zonepath_agent_world_save(NULL, world_path),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  CHECK(zonepath_agent_world_save(built, "/nonexistent_dir/x.zpa") !=
        ZONEPATH_OK);
  CHECK(strstr(zonepath_last_error_message(),
               "zonepath_agent_world_save: /nonexistent_dir/x.zpa") != NULL);
  CHECK_OK(zonepath_agent_world_save(built, world_path));
  zonepath_agent_world_free(built);

  /* Loading: bad arguments and bad files, then the world. */
  zonepath_agent_world* world = NULL;
  const char* unknown[] = {"cart", "hovercraft"};
  CHECK_ERROR(zonepath_agent_world_load(world_path, unknown, 2, &world),
              ZONEPATH_INVALID_ARGUMENT, "hovercraft");
  const char* null_name[] = {"cart", NULL};
  CHECK_ERROR(zonepath_agent_world_load(world_path, null_name, 2, &world),
              ZONEPATH_INVALID_ARGUMENT, "classes[1] is NULL");
  CHECK_ERROR(zonepath_agent_world_load(world_path, NULL, 1, &world),
              ZONEPATH_INVALID_ARGUMENT, "classes is NULL");
  CHECK_ERROR(zonepath_agent_world_load(NULL, NULL, 0, &world),
              ZONEPATH_INVALID_ARGUMENT, "path is NULL");
  CHECK_ERROR(zonepath_agent_world_load(world_path, NULL, 0, NULL),
              ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  CHECK_ERROR(
      zonepath_agent_world_load("/nonexistent_dir/x.zpa", NULL, 0, &world),
      ZONEPATH_NOT_FOUND, "/nonexistent_dir/x.zpa");
  CHECK_ERROR(zonepath_agent_world_load(map_path, NULL, 0, &world),
              ZONEPATH_FAILED_PRECONDITION, "zonepath_agent_world_load: ");
  CHECK(strstr(zonepath_last_error_message(),
               "c_api_agents.map: not a zonepath") != NULL);
  /* A single-class world file (TestWorld saved it) is not an agent world:
   * named by its magic, not refused for its size. */
  CHECK_ERROR(zonepath_agent_world_load(plain_path, NULL, 0, &world),
              ZONEPATH_FAILED_PRECONDITION, "bad magic");
  CHECK(CopyPrefix(world_path, cut_path, 200));
  CHECK_ERROR(zonepath_agent_world_load(cut_path, NULL, 0, &world),
              ZONEPATH_DATA_LOSS, "c_api_agents_cut.zpa");
  CHECK(world == NULL);
  CHECK_OK(zonepath_agent_world_load(world_path, NULL, 0, &world));
  if (world == NULL) return;

  zonepath_agent_world_info winfo;
  winfo.struct_size = 3;
  CHECK_ERROR(zonepath_agent_world_get_info(world, &winfo),
              ZONEPATH_INVALID_ARGUMENT, "info->struct_size is 3");
  CHECK_ERROR(zonepath_agent_world_get_info(world, NULL),
              ZONEPATH_INVALID_ARGUMENT, "info is NULL");
  winfo.struct_size = sizeof winfo;
  CHECK_ERROR(zonepath_agent_world_get_info(NULL, &winfo),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  CHECK_OK(zonepath_agent_world_get_info(world, &winfo));
  CHECK(winfo.width == kAW && winfo.height == kAH &&
        winfo.classes == kClassCount &&
        winfo.memory_bytes > (uint64_t)(kAW * kAH));
  for (size_t i = 0; i < kClassCount; ++i) {
    zonepath_agent_class_info cinfo;
    cinfo.struct_size = sizeof cinfo;
    CHECK_OK(zonepath_agent_world_class_info(world, i, &cinfo));
    const TestClass* c = &kClasses[i];
    CHECK(strcmp(cinfo.name, c->name) == 0 && cinfo.width == c->width &&
          cinfo.length == c->length && cinfo.connectivity == c->connectivity &&
          cinfo.oriented == c->oriented);
    if (c->oriented) {
      CHECK(cinfo.backward_factor == c->backward && cinfo.turn_cost == c->turn);
    }
  }
  zonepath_agent_class_info past;
  past.struct_size = sizeof past;
  CHECK_ERROR(zonepath_agent_world_class_info(world, kClassCount, &past),
              ZONEPATH_OUT_OF_RANGE, "index 5, the world has 5 classes");
  CHECK_ERROR(zonepath_agent_world_class_info(NULL, 0, &past),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  past.struct_size = 8;
  CHECK_ERROR(zonepath_agent_world_class_info(world, 0, &past),
              ZONEPATH_INVALID_ARGUMENT, "info->struct_size is 8");

  zonepath_agent_planner* planner = NULL;
  CHECK_ERROR(zonepath_agent_planner_create(NULL, &planner),
              ZONEPATH_INVALID_ARGUMENT, "world is NULL");
  CHECK_ERROR(zonepath_agent_planner_create(world, NULL),
              ZONEPATH_INVALID_ARGUMENT, "out is NULL");
  CHECK_OK(zonepath_agent_planner_create(world, &planner));
  if (planner == NULL) {
    zonepath_agent_world_free(world);
    return;
  }
  const zonepath_point left = {2, 20}, right = {50, 24}, top_left = {3, 3},
                       bottom_right = {60, 2}, pocket = {55, 41},
                       dead_end = {40, 10}, below = {40, 30};
  /* Every class across the wall. The truck (2 x 2) must go round the
   * forest and through the wide gap, so it pays clearly more than the
   * walker. */
  double cost[kClassCount];
  for (int i = 0; i < kClassCount; ++i) {
    cost[i] = CheckedAgentPath(planner, &kClasses[i], left, right, NULL,
                               ZONEPATH_FOUND);
  }
  CHECK(cost[2] > cost[1] + 5);
  /* From the top left the walker takes the 1-cell gap, which the truck
   * cannot pass. */
  const double walker = CheckedAgentPath(planner, &kClasses[1], top_left,
                                         bottom_right, NULL, ZONEPATH_FOUND);
  const double truck = CheckedAgentPath(planner, &kClasses[2], top_left,
                                        bottom_right, NULL, ZONEPATH_FOUND);
  CHECK(truck > walker + 10);
  for (int i = 0; i < kClassCount; ++i) {
    CheckedAgentPath(planner, &kClasses[i], left, pocket, NULL,
                     ZONEPATH_UNREACHABLE);
  }

  /* The oriented classes, with headings and every option. */
  zonepath_agent_plan_options o;
  zonepath_agent_plan_options_init(&o);
  o.start_heading = 4;
  o.goal_heading = 2;
  const double fixed =
      CheckedAgentPath(planner, &kClasses[3], left, right, &o, ZONEPATH_FOUND);
  zonepath_agent_path_info pinfo;
  pinfo.struct_size = sizeof pinfo;
  CHECK_OK(zonepath_agent_planner_path_info(planner, &pinfo));
  CHECK(pinfo.turns >= 1 && fixed > pinfo.steps);
  o.goal_heading = 3; /* SE: the 8-headed barge has it */
  CheckedAgentPath(planner, &kClasses[4], left, right, &o, ZONEPATH_FOUND);
  o.smooth = 1;
  o.follow_steps = 8;
  o.merge_staircases = 0;
  o.goal_heading = 2;
  CheckedAgentPath(planner, &kClasses[3], top_left, bottom_right, &o,
                   ZONEPATH_FOUND);
  o.goal_heading = -1;
  for (int i = 3; i < kClassCount; ++i) {
    CheckedAgentPath(planner, &kClasses[i], bottom_right, left, &o,
                     ZONEPATH_FOUND);
    CheckedAgentPath(planner, &kClasses[i], top_left, right, &o,
                     ZONEPATH_FOUND);
    CheckedAgentPath(planner, &kClasses[i], left, pocket, &o,
                     ZONEPATH_UNREACHABLE);
  }
  /* Facing the closed end of a corridor too narrow to turn in, the cart
   * must back out. */
  o.start_heading = 0;
  backward_runs = 0;
  CheckedAgentPath(planner, &kClasses[3], dead_end, below, &o, ZONEPATH_FOUND);
  CHECK(backward_runs >= 1);
  CHECK(diagonal_runs >= 1); /* the barge took diagonal headings somewhere */
  /* An unoriented class ignores headings (its path starts heading 0). */
  zonepath_agent_plan_options headings = defaults;
  headings.start_heading = 6;
  headings.goal_heading = 2;
  zonepath_outcome outcome;
  CHECK_OK(zonepath_agent_planner_find_path(planner, "walker", left, right,
                                            &headings, &outcome));
  CHECK_OK(zonepath_agent_planner_path_info(planner, &pinfo));
  CHECK(outcome == ZONEPATH_FOUND && pinfo.start_heading == 0 &&
        pinfo.turns == 0 && fabs(pinfo.cost - cost[1]) < 1e-9);
  /* A caller compiled against a later, larger struct is accepted. */
  struct {
    zonepath_agent_plan_options options;
    double later_field;
  } larger;
  larger.options = defaults;
  larger.options.struct_size = sizeof larger;
  larger.later_field = 1.0;
  CHECK_OK(zonepath_agent_planner_find_path(planner, "cart", left, right,
                                            &larger.options, &outcome));

  /* Errors name the argument and leave an empty path at the start, after a
   * path was found and whatever the check that failed. */
  CHECK_ERROR(zonepath_agent_planner_find_path(NULL, "cart", left, right, NULL,
                                               &outcome),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  zonepath_point failed_start = top_left;
#define CHECK_EMPTY_AFTER_ERROR(call, code, text)                              \
  do {                                                                         \
    CHECK_OK(zonepath_agent_planner_find_path(planner, "cart", left, right,    \
                                              NULL, &outcome));                \
    CHECK_OK(zonepath_agent_planner_path_info(planner, &pinfo));               \
    CHECK(pinfo.runs > 0);                                                     \
    CHECK_ERROR(call, code, text);                                             \
    CHECK_OK(zonepath_agent_planner_path_info(planner, &pinfo));               \
    CHECK(pinfo.runs == 0 && pinfo.steps == 0 && pinfo.turns == 0 &&           \
          pinfo.cost == 0 && pinfo.start_heading == 0 &&                       \
          pinfo.start.x == failed_start.x && pinfo.start.y == failed_start.y); \
  } while (0)
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, NULL, top_left, right, NULL, &outcome),
                          ZONEPATH_INVALID_ARGUMENT, "agent is NULL");
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "cart", top_left, right, NULL, NULL),
                          ZONEPATH_INVALID_ARGUMENT, "outcome is NULL");
  CHECK_EMPTY_AFTER_ERROR(
      zonepath_agent_planner_find_path(planner, "hovercraft", top_left, right,
                                       NULL, &outcome),
      ZONEPATH_INVALID_ARGUMENT, "unknown agent class 'hovercraft'");
  const zonepath_point wall = {30, 20}, east_edge = {63, 20};
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "truck", top_left, wall, NULL, &outcome),
                          ZONEPATH_INVALID_ARGUMENT, "goal (30,20)");
  zonepath_agent_plan_options bad = defaults;
  bad.start_heading = 8;
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "cart", top_left, right, &bad, &outcome),
                          ZONEPATH_INVALID_ARGUMENT,
                          "options->start_heading is 8");
  bad = defaults;
  bad.goal_heading = -2;
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "cart", top_left, right, &bad, &outcome),
                          ZONEPATH_INVALID_ARGUMENT,
                          "options->goal_heading is -2");
  bad = defaults;
  bad.start_heading = 1; /* NE: the 4-headed cart has no such heading */
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "cart", top_left, right, &bad, &outcome),
                          ZONEPATH_INVALID_ARGUMENT,
                          "start heading NE is not a heading of class");
  bad = defaults;
  bad.goal_heading = 2; /* E at the east edge: the cart would stick out */
  CHECK_EMPTY_AFTER_ERROR(
      zonepath_agent_planner_find_path(planner, "cart", top_left, east_edge,
                                       &bad, &outcome),
      ZONEPATH_INVALID_ARGUMENT, "heading E is not a legal position");
  bad = defaults;
  bad.follow_steps = 0;
  CHECK_EMPTY_AFTER_ERROR(
      zonepath_agent_planner_find_path(planner, "walker", top_left, right, &bad,
                                       &outcome),
      ZONEPATH_INVALID_ARGUMENT, "options->follow_steps is 0");
  bad = defaults;
  bad.follow_margin = -1;
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "cart", top_left, right, &bad, &outcome),
                          ZONEPATH_INVALID_ARGUMENT,
                          "options->follow_margin is -1");
  bad = defaults;
  bad.struct_size = 4;
  CHECK_EMPTY_AFTER_ERROR(zonepath_agent_planner_find_path(
                              planner, "cart", top_left, right, &bad, &outcome),
                          ZONEPATH_INVALID_ARGUMENT,
                          "options->struct_size is 4");
  failed_start = (zonepath_point){-1, 3};
  CHECK_EMPTY_AFTER_ERROR(
      zonepath_agent_planner_find_path(planner, "cart", failed_start, right,
                                       NULL, &outcome),
      ZONEPATH_INVALID_ARGUMENT, "start (-1,3)");
#undef CHECK_EMPTY_AFTER_ERROR

  /* Buffers. */
  CHECK_OK(zonepath_agent_planner_find_path(planner, "cart", left, right, &o,
                                            &outcome));
  size_t n = 0;
  CHECK_OK(zonepath_agent_planner_path_runs(planner, NULL, 0, &n));
  CHECK(n >= 2);
  zonepath_agent_run one = {99, 99, 99, 99};
  size_t asked = 0;
  CHECK_ERROR(zonepath_agent_planner_path_runs(planner, &one, 1, &asked),
              ZONEPATH_BUFFER_TOO_SMALL, "runs holds 1 elements");
  CHECK(asked == n && one.action == 99 && one.heading == 99 &&
        one.rotation == 99 && one.count == 99);
  CHECK_ERROR(zonepath_agent_planner_path_runs(planner, NULL, 0, NULL),
              ZONEPATH_INVALID_ARGUMENT, "runs and needed are both NULL");
  CHECK_ERROR(zonepath_agent_planner_path_runs(planner, NULL, 2, &asked),
              ZONEPATH_INVALID_ARGUMENT, "runs is NULL but capacity is 2");
  CHECK_ERROR(zonepath_agent_planner_path_runs(NULL, NULL, 0, &asked),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");
  {
    /* A buffer without `needed`. */
    zonepath_agent_run* runs = malloc(n * sizeof *runs);
    CHECK_OK(zonepath_agent_planner_path_runs(planner, runs, n, NULL));
    CHECK(runs[0].count >= 1);
    free(runs);
  }
  CHECK_ERROR(zonepath_agent_planner_path_info(planner, NULL),
              ZONEPATH_INVALID_ARGUMENT, "info is NULL");
  CHECK_ERROR(zonepath_agent_planner_path_info(NULL, &pinfo),
              ZONEPATH_INVALID_ARGUMENT, "planner is NULL");

  /* A world loaded with one class answers for it only. */
  zonepath_agent_world* carts = NULL;
  const char* only_cart[] = {"cart"};
  CHECK_OK(zonepath_agent_world_load(world_path, only_cart, 1, &carts));
  if (carts != NULL) {
    zonepath_agent_world_info cinfo;
    cinfo.struct_size = sizeof cinfo;
    CHECK_OK(zonepath_agent_world_get_info(carts, &cinfo));
    CHECK(cinfo.classes == 1 && cinfo.memory_bytes < winfo.memory_bytes);
    zonepath_agent_class_info only;
    only.struct_size = sizeof only;
    CHECK_OK(zonepath_agent_world_class_info(carts, 0, &only));
    CHECK(strcmp(only.name, "cart") == 0);
    zonepath_agent_planner* cart_planner = NULL;
    CHECK_OK(zonepath_agent_planner_create(carts, &cart_planner));
    CHECK_ERROR(zonepath_agent_planner_find_path(cart_planner, "truck", left,
                                                 right, NULL, &outcome),
                ZONEPATH_FAILED_PRECONDITION, "has no world here");
    CHECK_ERROR(zonepath_agent_planner_find_path(cart_planner, "barge", left,
                                                 right, NULL, &outcome),
                ZONEPATH_FAILED_PRECONDITION, "has no world here");
    CheckedAgentPath(cart_planner, &kClasses[3], left, right, &o,
                     ZONEPATH_FOUND);
    zonepath_agent_planner_free(cart_planner);
    zonepath_agent_world_free(carts);
  }
  zonepath_agent_planner_free(planner);
  zonepath_agent_world_free(world);
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
  TestSmoothBySearch();
  TestChanges(world);
  TestStore(world);
  zonepath_world_free(world);
  TestAgents(dir);
  if (failures > 0) {
    fprintf(stderr, "c_api_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
