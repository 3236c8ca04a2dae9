/* An engine's use of the installed C API (libzonepath_c.so, compiled as
 * C11): plan on a world file, then plan for an oriented agent class on an
 * agent world file (consumer_test.sh builds both with the zonepath tool
 * from the same 12 x 6 map: a wall in column 5 from row 2 down).
 * usage: consumer_c WORLD AGENT_WORLD */
#include <stdio.h>
#include <zonepath/zonepath.h>

static int Fail(const char* what) {
  fprintf(stderr, "consumer_c: %s: %s\n", what, zonepath_last_error_message());
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  if ((zonepath_api_version() >> 16) != ZONEPATH_C_VERSION_MAJOR) return 3;
  zonepath_world* world = NULL;
  if (zonepath_world_load(argv[1], &world) != ZONEPATH_OK) return Fail("load");
  zonepath_planner* planner = NULL;
  zonepath_outcome outcome;
  const zonepath_point start = {2, 5}, goal = {8, 5};
  if (zonepath_planner_create(world, &planner) != ZONEPATH_OK ||
      zonepath_planner_find_path(planner, start, goal, NULL, &outcome) !=
          ZONEPATH_OK) {
    return Fail("plan");
  }
  zonepath_path_info info = {.struct_size = sizeof info};
  zonepath_planner_path_info(planner, &info);
  printf("consumer_c world: %s, %lld steps, cost %.3f\n",
         outcome == ZONEPATH_FOUND ? "found" : "unreachable",
         (long long)info.steps, info.cost);
  zonepath_planner_free(planner);
  zonepath_world_free(world);

  zonepath_agent_world* agents = NULL;
  if (zonepath_agent_world_load(argv[2], NULL, 0, &agents) != ZONEPATH_OK) {
    return Fail("agent load");
  }
  zonepath_agent_planner* agent_planner = NULL;
  zonepath_agent_plan_options options;
  zonepath_agent_plan_options_init(&options);
  options.goal_heading = 2; /* arrive facing E */
  /* Anchors: the wagon (1 x 2, facing N) covers its anchor and the cell
   * below, so it starts one row up. */
  const zonepath_point agent_start = {2, 3}, agent_goal = {8, 3};
  if (zonepath_agent_planner_create(agents, &agent_planner) != ZONEPATH_OK ||
      zonepath_agent_planner_find_path(agent_planner, "wagon", agent_start,
                                       agent_goal, &options,
                                       &outcome) != ZONEPATH_OK) {
    return Fail("agent plan");
  }
  zonepath_agent_path_info agent_info = {.struct_size = sizeof agent_info};
  zonepath_agent_planner_path_info(agent_planner, &agent_info);
  printf("consumer_c wagon: %s, %lld steps, %lld turns, cost %.3f\n",
         outcome == ZONEPATH_FOUND ? "found" : "unreachable",
         (long long)agent_info.steps, (long long)agent_info.turns,
         agent_info.cost);
  zonepath_agent_planner_free(agent_planner);
  zonepath_agent_world_free(agents);
  return 0;
}
