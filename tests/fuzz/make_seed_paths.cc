// Writes a few encoded paths of every codec into a directory, as seeds for
// the path decoder fuzz targets: make_seed_paths DIR.
#include <cstdio>
#include <fstream>
#include <string>

#include "zonepath/paths/path_codec.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_paths DIR\n");
    return 2;
  }
  using zonepath::Direction;
  zonepath::RunLengthPath path;
  path.Reset({100, 100});
  const Direction moves[] = {Direction::kE, Direction::kNE, Direction::kS,
                             Direction::kW, Direction::kNW, Direction::kE};
  for (int i = 0; i < 40; ++i) path.Append(moves[i % 6], 1 + (i * 7) % 5);
  for (zonepath::PathCodec codec : zonepath::kAllPathCodecs) {
    for (int log2 : {0, 1, 3}) {
      zonepath::EncodeOptions options;
      options.index_interval_log2 = log2;
      std::string bytes;
      if (!zonepath::EncodePath(codec, path, &bytes, options).ok()) return 1;
      const std::string name = std::string(argv[1]) + "/" +
                               std::string(zonepath::PathCodecName(codec)) +
                               "_" + std::to_string(log2);
      std::ofstream(name, std::ios::binary) << bytes;
    }
  }
  return 0;
}
