// Lossless storage of an AgentPath (turns included) on top of any path
// codec of zonepath::paths, whose formats stay unchanged.
//
// An AgentPath's movement, read without its turns, is a RunLengthPath
// (ToRunLengthPath's rule: forward runs step along the heading, backward
// runs against it), and the heading during every step follows from the
// start heading and the turns before it. So an agent path is stored as:
//
//   "ZAP" 0x01                   magic and version
//   1 byte                       bit 0: oriented; bits 1-2: eighths of a
//                                turn per increment (1 or 2; 0 if
//                                unoriented); bits 3-5: start heading
//   varint T                     number of turn runs
//   T x { varint step,           steps made before this turn run
//         1 byte sense,          0 clockwise (+1), 1 counter-clockwise (-1)
//         varint count }         increments, >= 1
//   rest                         the movement, encoded by EncodePath with
//                                the chosen codec (self-describing)
//
// (varint: LEB128, 7 bits per byte, low first, at most 5 bytes.) Decoding
// splits the movement's runs at the turn steps and names each step forward
// (its direction is the current heading) or backward (the opposite); any
// other direction of an oriented path is a DataLoss error. An unoriented
// path has T = 0 and start heading N, so its stored form is the header plus
// exactly today's encoded bytes. Costs are not stored (WalkAgentPath
// recomputes them).
//
//   std::string bytes;
//   RETURN_IF_ERROR(EncodeAgentPath(PathCodec::kRunLength, cart, path,
//                                   &bytes));
//   AgentPath back;
//   RETURN_IF_ERROR(DecodeAgentPath(bytes, &back));   // back == path
#ifndef ZONEPATH_AGENTS_AGENT_PATH_CODEC_H_
#define ZONEPATH_AGENTS_AGENT_PATH_CODEC_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_path.h"
#include "zonepath/paths/path_codec.h"

namespace zonepath {

// Encodes `path` of a unit of `agent` into `out` (replaced). InvalidArgument
// for a turn in an unoriented path or a codec limit (path_codec.h).
absl::Status EncodeAgentPath(PathCodec codec, const AgentClass& agent,
                             const AgentPath& path, std::string* out);

// Decodes EncodeAgentPath's bytes into `out` (reset first; cost left 0).
// DataLoss for malformed bytes.
absl::Status DecodeAgentPath(absl::string_view bytes, AgentPath* out);

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_PATH_CODEC_H_
