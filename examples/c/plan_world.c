/* Loads a world (a world file, or builds one from a MovingAI .map) and plans
 * one path with zonepath's C API; prints its cost, runs and first cells.
 *
 *   plan_world WORLD.zpw|MAP.map SX SY GX GY
 *
 * Build: link zonepath::c_shared (or zonepath::c) from CMake, or
 *   cc plan_world.c -I PREFIX/include -L PREFIX/lib -lzonepath_c -lm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zonepath/zonepath.h>

static int Fail(const char* what) {
  fprintf(stderr, "%s: %s: %s\n", what,
          zonepath_status_name(zonepath_last_error()),
          zonepath_last_error_message());
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s WORLD.zpw|MAP.map SX SY GX GY\n", argv[0]);
    return 2;
  }
  printf("%s\n", zonepath_version());
  const char* input = argv[1];
  const size_t len = strlen(input);
  zonepath_world* world = NULL;
  zonepath_status status =
      len > 4 && strcmp(input + len - 4, ".map") == 0
          ? zonepath_world_build_from_map(input, NULL, &world)
          : zonepath_world_load(input, &world);
  if (status != ZONEPATH_OK) return Fail(input);

  zonepath_world_info info;
  info.struct_size = sizeof info;
  zonepath_world_get_info(world, &info);
  printf("world %dx%d, %d levels, %.1f MB\n", info.width, info.height,
         info.levels, info.memory_bytes / 1e6);

  zonepath_planner* planner = NULL;
  if (zonepath_planner_create(world, &planner) != ZONEPATH_OK) {
    zonepath_world_free(world);
    return Fail("planner");
  }
  const zonepath_point start = {atoi(argv[2]), atoi(argv[3])};
  const zonepath_point goal = {atoi(argv[4]), atoi(argv[5])};
  zonepath_plan_options options;
  zonepath_plan_options_init(&options);
  options.smooth = 1;
  zonepath_outcome outcome;
  int rc = 0;
  if (zonepath_planner_find_path(planner, start, goal, &options, &outcome) !=
      ZONEPATH_OK) {
    rc = Fail("find_path");
  } else if (outcome == ZONEPATH_UNREACHABLE) {
    printf("unreachable\n");
  } else {
    static const char* const kNames[8] = {"N", "NE", "E", "SE",
                                          "S", "SW", "W", "NW"};
    zonepath_path_info path;
    path.struct_size = sizeof path;
    zonepath_planner_path_info(planner, &path);
    size_t n = 0;
    zonepath_planner_path_runs(planner, NULL, 0, &n); /* size query */
    zonepath_run* runs = malloc(n * sizeof *runs);
    size_t n_cells = 0;
    zonepath_planner_path_cells(planner, NULL, 0, &n_cells);
    zonepath_point* cells = malloc(n_cells * sizeof *cells);
    if (runs == NULL || cells == NULL ||
        zonepath_planner_path_runs(planner, runs, n, &n) != ZONEPATH_OK ||
        zonepath_planner_path_cells(planner, cells, n_cells, &n_cells) !=
            ZONEPATH_OK) {
      rc = Fail("path");
    } else {
      printf("cost %.3f, %lld steps, %zu runs:", path.cost,
             (long long)path.steps, n);
      for (size_t i = 0; i < n && i < 12; ++i) {
        printf(" %s%u", kNames[runs[i].direction], runs[i].count);
      }
      printf("%s\ncells: (%d,%d) (%d,%d) ... (%d,%d)\n", n > 12 ? " ..." : "",
             cells[0].x, cells[0].y, cells[1].x, cells[1].y,
             cells[n_cells - 1].x, cells[n_cells - 1].y);
    }
    free(runs);
    free(cells);
  }
  zonepath_planner_free(planner);
  zonepath_world_free(world);
  return rc;
}
