/* zonepath.h: the C API of zonepath, for game engines and other languages
 * (P/Invoke, GDExtension, Rust/Go FFI). Plain C11; every symbol is prefixed
 * zonepath_ / ZONEPATH_. Include as <zonepath/zonepath.h>; link the CMake
 * target zonepath::c (static) or the shared library libzonepath_c.so
 * (target zonepath::c_shared), which exports only the functions below.
 *
 *   zonepath_world* world = NULL;
 *   if (zonepath_world_load("den520d.zpw", &world) != ZONEPATH_OK) {
 *     fprintf(stderr, "%s\n", zonepath_last_error_message());
 *     return 1;
 *   }
 *   zonepath_planner* planner = NULL;
 *   zonepath_planner_create(world, &planner);
 *   zonepath_outcome outcome;
 *   zonepath_planner_find_path(planner, 1, 1, 200, 180, NULL, &outcome);
 *   size_t n = 0;
 *   zonepath_planner_path_cells(planner, NULL, 0, &n);      // size query
 *   zonepath_point* cells = malloc(n * sizeof *cells);
 *   zonepath_planner_path_cells(planner, cells, n, &n);
 *   ...
 *   free(cells);
 *   zonepath_planner_free(planner);
 *   zonepath_world_free(world);
 *
 * ERRORS. Every fallible function returns a zonepath_status (ZONEPATH_OK or
 * an error code; the codes equal absl::StatusCode's values, plus
 * ZONEPATH_BUFFER_TOO_SMALL). On error the calling thread's last error holds
 * the code and a message naming the file, field or argument
 * (zonepath_last_error, zonepath_last_error_message); nothing is changed and
 * no output handle is written except where noted. A successful call resets
 * the last error to ZONEPATH_OK / "". No function throws, aborts or exits:
 * NULL handles, NULL output pointers, bad sizes and bad coordinates are
 * reported as ZONEPATH_INVALID_ARGUMENT.
 *
 * OWNERSHIP. Handles returned through `out` parameters belong to the
 * caller, who releases each with its _free function (free functions accept
 * NULL). Strings and buffers passed in are only read during the call, never
 * kept. Buffers passed out are caller-owned; the library writes at most
 * `capacity` elements.
 *
 * THREADS. A world is immutable: any number of threads may use one world
 * at once (all functions taking `const zonepath_world*`). A planner, and the
 * cursors made from it, belong to one thread at a time. A path store may be
 * used from any number of threads at once (it locks internally). A handle
 * must outlive every handle made from it (world > planner > cursor) and must
 * not be freed while another thread uses it. The last error is per thread.
 *
 * VERSIONING. ZONEPATH_C_VERSION_MAJOR/MINOR describe this header;
 * zonepath_api_version() the library loaded at run time. Within one major
 * version the ABI is stable: functions are only added, and structs that
 * may grow carry `struct_size` (set by their _init function or sizeof) so
 * that a library reads and writes only the fields a caller compiled
 * against: new fields go at the end, and a struct_size of any earlier minor
 * version's layout is accepted. History: 1.1 added
 * zonepath_plan_stats.top_level; 1.2 added
 * zonepath_plan_options.abstract_weight; 1.3 added
 * zonepath_build_params.beacon_spacing; 1.4 added agent worlds and agent
 * planners (zonepath_agent_*); 1.5 added
 * zonepath_build_params.connection_tables; 1.6 added
 * zonepath_plan_options.free_crossings; 1.7 added
 * zonepath_plan_options.smooth_by_search; 1.8 made
 * zonepath_build_params.zone_size 0 (automatic) valid and the default.
 */
#ifndef ZONEPATH_ZONEPATH_H_
#define ZONEPATH_ZONEPATH_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define ZONEPATH_C_API __declspec(dllexport)
#else
#define ZONEPATH_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ZONEPATH_C_VERSION_MAJOR 1
#define ZONEPATH_C_VERSION_MINOR 8

/* ---- Versions, errors ------------------------------------------------- */

typedef enum zonepath_status {
  ZONEPATH_OK = 0,
  ZONEPATH_CANCELLED = 1,
  ZONEPATH_UNKNOWN = 2,
  ZONEPATH_INVALID_ARGUMENT = 3,
  ZONEPATH_DEADLINE_EXCEEDED = 4,
  ZONEPATH_NOT_FOUND = 5,
  ZONEPATH_ALREADY_EXISTS = 6,
  ZONEPATH_PERMISSION_DENIED = 7,
  ZONEPATH_RESOURCE_EXHAUSTED = 8,
  ZONEPATH_FAILED_PRECONDITION = 9,
  ZONEPATH_ABORTED = 10,
  ZONEPATH_OUT_OF_RANGE = 11,
  ZONEPATH_UNIMPLEMENTED = 12,
  ZONEPATH_INTERNAL = 13,
  ZONEPATH_UNAVAILABLE = 14,
  ZONEPATH_DATA_LOSS = 15,
  ZONEPATH_UNAUTHENTICATED = 16,
  /* The caller's buffer holds fewer elements than needed; `*needed` says
   * how many. Nothing was written. */
  ZONEPATH_BUFFER_TOO_SMALL = 100
} zonepath_status;

/* "zonepath C API 1.8 (library 0.1.0)". Any thread; static storage (do not
 * free). */
ZONEPATH_C_API const char* zonepath_version(void);
/* major << 16 | minor of the loaded library (compare the major with
 * ZONEPATH_C_VERSION_MAJOR at start-up). Any thread. */
ZONEPATH_C_API uint32_t zonepath_api_version(void);
/* "OK", "INVALID_ARGUMENT", ...; "UNKNOWN_STATUS" for other values.
 * Static storage; any thread. */
ZONEPATH_C_API const char* zonepath_status_name(int32_t status);
/* The calling thread's last error code and message (per thread). The
 * message belongs to the library and stays valid until the thread's next
 * zonepath call; copy it to keep it. */
ZONEPATH_C_API zonepath_status zonepath_last_error(void);
ZONEPATH_C_API const char* zonepath_last_error_message(void);

/* ---- Plain data --------------------------------------------------------- */

typedef struct zonepath_point {
  int32_t x; /* column, 0 = left */
  int32_t y; /* row, 0 = top */
} zonepath_point;

/* Directions: 0 N (y-1), 1 NE, 2 E (x+1), 3 SE, 4 S, 5 SW, 6 W, 7 NW. */
typedef struct zonepath_run {
  uint32_t direction; /* 0..7 */
  uint32_t count;     /* moves, >= 1 */
} zonepath_run;

typedef enum zonepath_outcome {
  ZONEPATH_FOUND = 0,
  ZONEPATH_UNREACHABLE = 1 /* goal in another component: empty path */
} zonepath_outcome;

/* Offline build parameters (ranges checked by the build functions). */
typedef struct zonepath_build_params {
  uint32_t struct_size; /* sizeof(zonepath_build_params) */
  /* Level-1 zone side, 4..1024, or 0 = automatic: 32 up to 4096 cells a
     side, 64 above (default 0 since 1.8, 32 before). */
  int32_t zone_size;
  int32_t levels;             /* 1..8, 0 = automatic (0) */
  int32_t group;              /* level-k zone = group^2 zones (4) */
  int32_t entrance_threshold; /* entrances this long get 2 beacons (6) */
  int32_t connectivity;       /* 8 or 4 (8) */
  int32_t cache_paths;        /* nonzero: keep level-1 cell paths (0) */
  int32_t threads;            /* build threads, 0 = all (0) */
  /* Since 1.3 (a 1.0-1.2 caller's smaller struct_size keeps the default):
     0, or max(2, zone_size / 8)..1024: long entrances also get beacons in
     between, at most this many cells apart (0). */
  int32_t beacon_spacing;
  /* Since 1.5 (an earlier caller's smaller struct_size keeps the default):
     nonzero: store connection tables, which connect queries to levels >= 3
     by a look-up instead of a search (first moves sooner on large worlds,
     up to 0.5 bytes a cell per level more) (1). */
  int32_t connection_tables;
} zonepath_build_params;

typedef struct zonepath_world_info {
  uint32_t struct_size; /* sizeof(zonepath_world_info) */
  int32_t width;
  int32_t height;
  int32_t levels;
  int32_t zone_size;
  int32_t connectivity;  /* 8 or 4 */
  uint64_t version;      /* 0 built/loaded, +1 per apply_changes */
  uint64_t memory_bytes; /* bytes the world reads (shared pages counted) */
  uint64_t owned_bytes;  /* bytes not shared with the world it came from */
} zonepath_world_info;

/* One cell's new cost: 0 = blocked, 1..255 terrain cost. */
typedef struct zonepath_cell_change {
  int32_t x;
  int32_t y;
  int32_t cost;
} zonepath_cell_change;

typedef struct zonepath_plan_options {
  uint32_t struct_size;       /* sizeof(zonepath_plan_options) */
  int32_t smooth;             /* nonzero: smooth, also via a cursor (0) */
  int32_t fewer_turns;        /* nonzero: prefer straight moves (1) */
  double direct_search_zones; /* direct search within N zones (1.0) */
  /* Since 1.2 (a 1.0/1.1 caller's smaller struct_size keeps the default):
   * weight w in [1, 10] on the abstract search's heuristic; the abstract
   * plan costs at most w times the cheapest one, far fewer abstract nodes
   * are expanded on large worlds (1.0 = exact). */
  double abstract_weight;
  /* Since 1.6 (an earlier caller's smaller struct_size keeps the default):
   * nonzero: re-choose each level-1 border crossing by a cell search over
   * the zones ahead (on 8-connected grids of one cost up to 8 zones: paths
   * about as short as smoothed ones for less time, first moves a little
   * later; elsewhere the 2 zones around each crossing); the levels above
   * choose the route's zones over 3 zones instead of 2 (0). */
  int32_t free_crossings;
  /* Since 1.7: not read. It fills the padding that 1.6's layout ended with
   * (a 1.6 caller's sizeof covers it, uninitialised), so that the field
   * after it lies past any 1.6 struct_size (0). */
  int32_t reserved;
  /* Since 1.7 (an earlier caller's smaller struct_size keeps the default):
   * with smooth, nonzero: smooth by searching windows of the path again
   * instead of string pulling (on grids of one cost, shorter paths among
   * rooms and doors, ~2.5x the smoothed query's time; on weighted grids,
   * where string pulling takes only ways no dearer than the moves they
   * replace, ~2x the time for paths further from the optimum) (0). */
  int32_t smooth_by_search;
} zonepath_plan_options;

typedef struct zonepath_plan_stats {
  uint32_t struct_size; /* sizeof(zonepath_plan_stats) */
  int32_t used_direct;  /* the direct grid search gave the path */
  int64_t expanded;     /* nodes expanded, all stages */
  int64_t generated;    /* nodes generated, all stages */
  /* Nodes on the abstract path. A plan that walks a level's distance
   * table (the top level of a 1024^2 map) walks it as the cursor goes:
   * after plan this and the counts above cover the walk so far, after the
   * last cursor step all of it. */
  int64_t abstract_nodes;
  double time_us;      /* search time, all stages, microseconds */
  double planned_cost; /* cost before refinement (after plan) */
  /* Since 1.1 (a 1.0 caller's smaller struct_size leaves it unwritten): */
  int32_t top_level; /* level the abstract search ran on (1..), 0: direct */
} zonepath_plan_stats;

typedef struct zonepath_path_info {
  uint32_t struct_size; /* sizeof(zonepath_path_info) */
  zonepath_point start;
  int64_t steps; /* moves */
  int64_t runs;  /* zonepath_run elements */
  double cost;   /* summed step costs, as walked */
} zonepath_path_info;

typedef enum zonepath_codec {
  ZONEPATH_CODEC_RUN_LENGTH = 1,
  ZONEPATH_CODEC_TURNS = 2,
  ZONEPATH_CODEC_WAYPOINTS = 3,
  ZONEPATH_CODEC_RAW_CELLS = 4
} zonepath_codec;

typedef struct zonepath_store_stats {
  uint32_t struct_size; /* sizeof(zonepath_store_stats) */
  int64_t units;
  int64_t segments;
  int64_t remaining_steps; /* over all units */
  uint64_t encoded_bytes;  /* encoded segments */
  uint64_t memory_bytes;   /* everything the store holds */
} zonepath_store_stats;

/* Fill a struct with the defaults above and its struct_size. NULL is
 * ignored. Any thread. */
ZONEPATH_C_API void zonepath_build_params_init(zonepath_build_params* params);
ZONEPATH_C_API void zonepath_plan_options_init(zonepath_plan_options* options);

/* ---- Worlds (immutable; share freely between threads) ------------------- */

typedef struct zonepath_world zonepath_world;

/* Builds a world from a MovingAI .map file (weighted legend: digits 1-9 are
 * costs). `params` NULL means defaults; the build runs on params->threads
 * worker threads. Any thread. On success *out is a new world the caller
 * owns (zonepath_world_free); map_path and params are only read. */
ZONEPATH_C_API zonepath_status zonepath_world_build_from_map(
    const char* map_path, const zonepath_build_params* params,
    zonepath_world** out);
/* Builds a world from `width * height` cost bytes, row-major (costs[y *
 * width + x]; 0 blocked, 1..255 cost); costs_size must equal width *
 * height. The bytes are copied (the caller keeps its array). Any thread;
 * *out as for zonepath_world_build_from_map. */
ZONEPATH_C_API zonepath_status zonepath_world_build(
    const uint8_t* costs, size_t costs_size, int32_t width, int32_t height,
    const zonepath_build_params* params, zonepath_world** out);
/* Loads a world file (zonepath build / zonepath_world_save); errors name
 * the file and the failing field. Any thread; *out is the caller's
 * (zonepath_world_free). */
ZONEPATH_C_API zonepath_status zonepath_world_load(const char* path,
                                                   zonepath_world** out);
/* Saves atomically (temporary file + rename). Any thread, also while
 * other threads plan on the world. */
ZONEPATH_C_API zonepath_status zonepath_world_save(const zonepath_world* world,
                                                   const char* path);
/* Size, levels, version and memory of the world into the caller's `info`
 * (struct_size set). Any thread. */
ZONEPATH_C_API zonepath_status
zonepath_world_get_info(const zonepath_world* world, zonepath_world_info* info);
/* Copies the cost bytes (width * height, row-major) into the caller's
 * `costs`; see BUFFERS at zonepath_planner_path_runs. Any thread. */
ZONEPATH_C_API zonepath_status zonepath_world_costs(const zonepath_world* world,
                                                    uint8_t* costs,
                                                    size_t capacity,
                                                    size_t* needed);
/* The next version of `world` with the changes applied (a later change of
 * the same cell wins). `world` is not modified; both stay valid and share
 * unchanged memory (reference counted: either may be freed first). A bad
 * change rejects the whole batch, naming it. Any thread, also while others
 * plan on `world`; *out is the caller's (zonepath_world_free). */
ZONEPATH_C_API zonepath_status zonepath_world_apply_changes(
    const zonepath_world* world, const zonepath_cell_change* changes,
    size_t count, zonepath_world** out);
/* Frees a world (NULL is ignored). No planner made from it may remain,
 * and no other thread may be using it. */
ZONEPATH_C_API void zonepath_world_free(zonepath_world* world);

/* ---- Planners (one thread at a time; the world must outlive it) --------- */

typedef struct zonepath_planner zonepath_planner;

/* A planner on `world` (which must outlive it). Any thread; make one per
 * thread that plans. *out is the caller's (zonepath_planner_free). */
ZONEPATH_C_API zonepath_status
zonepath_planner_create(const zonepath_world* world, zonepath_planner** out);
/* Frees a planner (NULL is ignored); its cursors must be freed first. */
ZONEPATH_C_API void zonepath_planner_free(zonepath_planner* planner);

/* Plans, refines (and smooths if asked) the whole path, kept in the planner
 * until its next find_path/plan: read it with zonepath_planner_path_*.
 * The planner's thread only (all planner functions below).
 * `options` NULL means defaults. An unreachable goal is ZONEPATH_OK with
 * *outcome = ZONEPATH_UNREACHABLE and an empty path; an endpoint outside
 * the grid or blocked is ZONEPATH_INVALID_ARGUMENT. Once its arguments
 * pass the NULL and range checks a query replaces the planner's path
 * (invalidating its cursors) even if it then fails: a failed query leaves
 * an empty path at `start`, never the previous one. */
ZONEPATH_C_API zonepath_status zonepath_planner_find_path(
    zonepath_planner* planner, zonepath_point start, zonepath_point goal,
    const zonepath_plan_options* options, zonepath_outcome* outcome);
/* Plans without refining; then a cursor yields the moves on demand. The
 * planner's stored path is emptied (it restarts at `start`). */
ZONEPATH_C_API zonepath_status zonepath_planner_plan(
    zonepath_planner* planner, zonepath_point start, zonepath_point goal,
    const zonepath_plan_options* options, zonepath_outcome* outcome);
/* Statistics of the last find_path/plan into the caller's `stats`. */
ZONEPATH_C_API zonepath_status zonepath_planner_get_stats(
    const zonepath_planner* planner, zonepath_plan_stats* stats);
/* Start, steps, runs and cost of the last find_path's path. */
ZONEPATH_C_API zonepath_status zonepath_planner_path_info(
    const zonepath_planner* planner, zonepath_path_info* info);
/* The last find_path's path as runs, or as every cell from start to goal
 * (steps + 1 cells). BUFFERS (here and below): `*needed` gets the element
 * count (`needed` may be NULL when a buffer is given); buffer NULL with
 * capacity 0 is a size query; a buffer smaller than needed gives
 * ZONEPATH_BUFFER_TOO_SMALL and writes nothing but *needed. */
ZONEPATH_C_API zonepath_status
zonepath_planner_path_runs(const zonepath_planner* planner, zonepath_run* runs,
                           size_t capacity, size_t* needed);
ZONEPATH_C_API zonepath_status zonepath_planner_path_cells(
    const zonepath_planner* planner, zonepath_point* cells, size_t capacity,
    size_t* needed);

/* ---- Path cursors (the planner's thread; valid until its next plan) ------ */

typedef struct zonepath_cursor zonepath_cursor;

/* A cursor over the path of the planner's last zonepath_planner_plan
 * (FAILED_PRECONDITION if that was not a successful plan). The planner's
 * thread; the planner must outlive it. *out is the caller's
 * (zonepath_cursor_free, NULL ignored). */
ZONEPATH_C_API zonepath_status zonepath_cursor_create(zonepath_planner* planner,
                                                      zonepath_cursor** out);
ZONEPATH_C_API void zonepath_cursor_free(zonepath_cursor* cursor);
/* Writes the next runs (at least `min_steps` >= 1 moves when the path has
 * them, refining lazily) into `runs` (capacity >= 1): *written runs. Moves
 * that do not fit are kept for the next call. *done becomes 1 once every
 * move has been written (then *written may be 0). FAILED_PRECONDITION if
 * the planner planned again since the cursor was made. */
ZONEPATH_C_API zonepath_status zonepath_cursor_next(zonepath_cursor* cursor,
                                                    int64_t min_steps,
                                                    zonepath_run* runs,
                                                    size_t capacity,
                                                    size_t* written, int* done);

/* ---- Path stores (thread-safe: readers in parallel, writers exclusive) -- */

typedef struct zonepath_store zonepath_store;

/* An empty store encoding paths with `codec` (a zonepath_codec value;
 * taken as an int so that any value can be checked). Any thread; *out is the
 * caller's (zonepath_store_free, NULL ignored, when no other thread uses
 * it). All store functions below may be called from any thread at once;
 * runs and buffers passed to them are only used during the call. */
ZONEPATH_C_API zonepath_status zonepath_store_create(int32_t codec,
                                                     zonepath_store** out);
ZONEPATH_C_API void zonepath_store_free(zonepath_store* store);
/* Stores the path `start` + runs[0..count) for `unit` (its first
 * `max_steps` moves if max_steps >= 0), replacing any previous one. */
ZONEPATH_C_API zonepath_status
zonepath_store_set(zonepath_store* store, uint64_t unit, zonepath_point start,
                   const zonepath_run* runs, size_t count, int64_t max_steps);
/* The unit's next moves (all if max_steps < 0) as runs; size query and
 * BUFFER_TOO_SMALL as for zonepath_planner_path_runs. `start` (may be NULL)
 * gets the unit's position. NOT_FOUND for a unit without a path. */
ZONEPATH_C_API zonepath_status zonepath_store_read(
    const zonepath_store* store, uint64_t unit, int64_t max_steps,
    zonepath_point* start, zonepath_run* runs, size_t capacity, size_t* needed);
/* The unit walked its next `steps` moves (0..remaining). */
ZONEPATH_C_API zonepath_status zonepath_store_advance(zonepath_store* store,
                                                      uint64_t unit,
                                                      int64_t steps);
/* Moves the unit has left; NOT_FOUND for a unit without a path. */
ZONEPATH_C_API zonepath_status zonepath_store_remaining(
    const zonepath_store* store, uint64_t unit, int64_t* steps);
/* Forgets the unit; NOT_FOUND if it had no path. */
ZONEPATH_C_API zonepath_status zonepath_store_remove(zonepath_store* store,
                                                     uint64_t unit);
/* Units, segments, remaining moves and bytes held, into `stats`. */
ZONEPATH_C_API zonepath_status zonepath_store_get_stats(
    const zonepath_store* store, zonepath_store_stats* stats);

/* ---- Agent worlds and agent planners (since 1.4) ------------------------ *
 *
 * An agent world (`zonepath build MAP -o W.zpa --agents FILE`, or
 * zonepath_agent_world_build_from_map) holds one terrain and a world per
 * agent class of an agent file (data/agents/example.agents: terrain types,
 * footprints, movement rules). An agent planner plans for a class named by
 * each query. Coordinates are the footprint's anchor, its top-left cell.
 * Headings are directions 0..7 as for runs (0 N, 2 E, 4 S, 6 W); a
 * 4-connected oriented class has only 0, 2, 4 and 6. Threads and lifetimes
 * as for worlds and planners: an agent world is immutable and shared, an
 * agent planner belongs to one thread at a time, world > planner.
 *
 *   zonepath_agent_world* aw = NULL;
 *   zonepath_agent_world_load("mixed.zpa", NULL, 0, &aw);
 *   zonepath_agent_planner* ap = NULL;
 *   zonepath_agent_planner_create(aw, &ap);
 *   zonepath_agent_plan_options o;
 *   zonepath_agent_plan_options_init(&o);
 *   o.goal_heading = 2;                              // arrive facing E
 *   zonepath_point s = {4, 4}, g = {120, 90};
 *   zonepath_outcome outcome;
 *   zonepath_agent_planner_find_path(ap, "wagon", s, g, &o, &outcome);
 *   size_t n = 0;
 *   zonepath_agent_planner_path_runs(ap, NULL, 0, &n);  // size query
 *   ...
 */

typedef struct zonepath_agent_world zonepath_agent_world;
typedef struct zonepath_agent_planner zonepath_agent_planner;

typedef enum zonepath_agent_action {
  ZONEPATH_AGENT_FORWARD = 0,  /* `count` steps towards `heading` */
  ZONEPATH_AGENT_BACKWARD = 1, /* `count` steps away from `heading`, facing
                                  it (oriented classes) */
  ZONEPATH_AGENT_TURN = 2      /* `count` turns in place of 90 degrees (4
                                  headings) or 45 (8), sense `rotation` */
} zonepath_agent_action;

/* One run of an agent path. An unoriented class's path has forward runs
 * only (its runs are zonepath_runs: direction = heading). */
typedef struct zonepath_agent_run {
  uint32_t action;  /* zonepath_agent_action */
  uint32_t heading; /* steps: the unit's heading during the run, 0..7;
                       turns: 0 */
  int32_t rotation; /* turns: +1 clockwise (N -> E with 4 headings, N -> NE
                       with 8), -1 counter-clockwise; steps: 0 */
  uint32_t count;   /* >= 1 */
} zonepath_agent_run;

typedef struct zonepath_agent_world_info {
  uint32_t struct_size; /* sizeof(zonepath_agent_world_info) */
  int32_t width;        /* terrain, cells */
  int32_t height;
  int32_t classes;       /* classes with a world here (loaded) */
  uint64_t memory_bytes; /* terrain, class grids, abstractions */
} zonepath_agent_world_info;

typedef struct zonepath_agent_class_info {
  uint32_t struct_size; /* sizeof(zonepath_agent_class_info) */
  /* NUL-terminated; owned by the world, valid until it is freed. */
  const char* name;
  int32_t width;          /* footprint cells across the heading, 1..8 */
  int32_t length;         /* footprint cells along the heading, 1..8 */
  int32_t connectivity;   /* 8 or 4 */
  int32_t oriented;       /* nonzero: state = anchor x heading */
  double backward_factor; /* oriented: a backward step costs this x forward */
  double turn_cost;       /* oriented: per turn increment, cost units */
} zonepath_agent_class_info;

typedef struct zonepath_agent_plan_options {
  uint32_t struct_size;  /* sizeof(zonepath_agent_plan_options) */
  int32_t smooth;        /* nonzero: smooth (oriented: the guide route) (0) */
  int32_t start_heading; /* oriented: heading at the start, 0..7 (0) */
  int32_t goal_heading;  /* oriented: heading at the goal 0..7, -1 any (-1) */
  int32_t follow_steps;  /* oriented: route cells per bounded exact search,
                            1..2^20 (24) */
  int32_t follow_margin; /* oriented: search box margin, 0..2^16 (6) */
  int32_t merge_staircases; /* oriented: merge staircases after (1) */
} zonepath_agent_plan_options;

typedef struct zonepath_agent_path_info {
  uint32_t struct_size; /* sizeof(zonepath_agent_path_info) */
  zonepath_point start; /* anchor */
  int32_t start_heading;
  int64_t steps; /* forward and backward steps */
  int64_t turns; /* turn increments */
  int64_t runs;  /* zonepath_agent_run elements */
  double cost;   /* walked cost under the class's rules */
} zonepath_agent_path_info;

ZONEPATH_C_API void zonepath_agent_plan_options_init(
    zonepath_agent_plan_options* options);

/* Builds an agent world from a MovingAI-style .map (its characters read
 * through the agent file's terrain legend) and an agent file, for every
 * class of the file. `params` as for zonepath_world_build_from_map (its
 * connectivity must still be 4 or 8 but is not used: each class has its
 * own). Errors (INVALID_ARGUMENT for a bad map, agent file or params,
 * NOT_FOUND for a missing file) name the function, file, line and field.
 * Any thread; *out is the caller's (zonepath_agent_world_free). */
ZONEPATH_C_API zonepath_status zonepath_agent_world_build_from_map(
    const char* map_path, const char* agents_path,
    const zonepath_build_params* params, zonepath_agent_world** out);
/* Loads an agent world file; `classes[0..class_count)` (names; NULL and 0
 * for all) loads only those classes' worlds. INVALID_ARGUMENT for a name
 * the file's agent text lacks; FAILED_PRECONDITION for a class the file has
 * no world for, and for a file that is not an agent world (bad magic) or
 * of another format version; DATA_LOSS for a truncated or corrupt one;
 * NOT_FOUND for a missing file; RESOURCE_EXHAUSTED when it would not fit
 * in memory. Any thread; *out is the caller's. */
ZONEPATH_C_API zonepath_status
zonepath_agent_world_load(const char* path, const char* const* classes,
                          size_t class_count, zonepath_agent_world** out);
/* Saves atomically (temporary file + rename). Any thread. */
ZONEPATH_C_API zonepath_status
zonepath_agent_world_save(const zonepath_agent_world* world, const char* path);
ZONEPATH_C_API zonepath_status zonepath_agent_world_get_info(
    const zonepath_agent_world* world, zonepath_agent_world_info* info);
/* Loaded class `index` (0 .. info.classes - 1, in the agent file's order;
 * after a load of some classes, only those count) into the caller's
 * `info`; OUT_OF_RANGE past the last. Any thread. */
ZONEPATH_C_API zonepath_status
zonepath_agent_world_class_info(const zonepath_agent_world* world, size_t index,
                                zonepath_agent_class_info* info);
/* NULL is ignored. No agent planner made from it may remain. */
ZONEPATH_C_API void zonepath_agent_world_free(zonepath_agent_world* world);

/* An agent planner on `world` (which must outlive it); one per thread that
 * plans. *out is the caller's (zonepath_agent_planner_free). */
ZONEPATH_C_API zonepath_status zonepath_agent_planner_create(
    const zonepath_agent_world* world, zonepath_agent_planner** out);
ZONEPATH_C_API void zonepath_agent_planner_free(
    zonepath_agent_planner* planner);
/* Plans for class `agent` from anchor `start` to anchor `goal`; the path
 * stays in the planner until its next find_path (read it with the
 * functions below). The planner's thread only. `options` NULL means
 * defaults; an unoriented class ignores the headings and follow options
 * (which are range-checked for every class all the same). An unreachable
 * goal is ZONEPATH_OK with *outcome = ZONEPATH_UNREACHABLE and an empty
 * path. INVALID_ARGUMENT for an unknown class, options out of range, an
 * endpoint the footprint does not fit, or (oriented classes) a heading the
 * class does not have or that does not fit at the goal;
 * FAILED_PRECONDITION for a class the world was loaded without. Any failure
 * leaves an empty path at `start`, heading 0. */
ZONEPATH_C_API zonepath_status zonepath_agent_planner_find_path(
    zonepath_agent_planner* planner, const char* agent, zonepath_point start,
    zonepath_point goal, const zonepath_agent_plan_options* options,
    zonepath_outcome* outcome);
/* Start, heading, steps, turns, runs and cost of the last path. */
ZONEPATH_C_API zonepath_status zonepath_agent_planner_path_info(
    const zonepath_agent_planner* planner, zonepath_agent_path_info* info);
/* The last path's runs; BUFFERS as for zonepath_planner_path_runs. */
ZONEPATH_C_API zonepath_status zonepath_agent_planner_path_runs(
    const zonepath_agent_planner* planner, zonepath_agent_run* runs,
    size_t capacity, size_t* needed);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ZONEPATH_ZONEPATH_H_ */
