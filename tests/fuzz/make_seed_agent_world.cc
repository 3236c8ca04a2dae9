// Writes a small valid agent world (every class of the example agent file,
// and a 1 x 2 cart) as a seed for agent_world_fuzz.
#include <cstdio>
#include <string>

#include "zonepath/agents/agent_file.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/mapgen/generators.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seed_agent_world AGENTS OUT\n");
    return 2;
  }
  auto agents = zonepath::ParseAgentFile(argv[1]);
  if (!agents.ok()) return 1;
  zonepath::MapGenOptions g;
  g.kind = zonepath::MapKind::kMixed;
  g.width = 48;
  g.height = 40;
  g.seed = 3;
  zonepath::AgentWorldBuildOptions o;
  o.build.params.zone_size = 8;
  o.build.params.group = 2;
  o.build.threads = 1;
  auto world = zonepath::BuildAgentWorld(*zonepath::GenerateMap(g),
                                         *std::move(agents), o);
  if (!world.ok()) return 1;
  return zonepath::SaveAgentWorldFile(*world, argv[2]).ok() ? 0 : 1;
}
