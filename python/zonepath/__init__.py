"""zonepath: hierarchical path planning on very large grid worlds.

Build or load a World, plan with a Planner (one per thread) or with
plan_batch (a thread pool, GIL released), keep unit paths in a PathStore,
and draw with render(). Errors raise zonepath.Error, whose .code is the
status name ('INVALID_ARGUMENT', 'NOT_FOUND', 'DATA_LOSS', ...) and whose
message names the file, line or field at fault.

    import numpy as np, zonepath
    grid = np.ones((256, 256), dtype=np.uint8)
    grid[128, 10:250] = 0                       # a wall
    world = zonepath.World.build(grid, zone_size=32)
    path = zonepath.Planner(world).find_path((5, 5), (200, 250), smooth=True)
    print(path.cost, path.cells[:3])
"""

from ._zonepath import (  # noqa: F401  (the public API)
    CODECS,
    AgentPath,
    AgentPlanner,
    AgentWorld,
    DIRECTIONS,
    Error,
    Path,
    PathCursor,
    PathStore,
    Planner,
    World,
    decode_path,
    encode_path,
    plan_batch,
    render,
)

__all__ = [
    "AgentPath",
    "AgentPlanner",
    "AgentWorld",
    "CODECS",
    "DIRECTIONS",
    "Error",
    "Path",
    "PathCursor",
    "PathStore",
    "Planner",
    "World",
    "decode_path",
    "encode_path",
    "plan_batch",
    "render",
]
