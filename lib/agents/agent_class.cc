#include "zonepath/agents/agent_class.h"

namespace zonepath {

AgentClass AgentClass::Default() {
  AgentClass c;
  for (int t = 0; t < 256; ++t) c.cost_of_type[t] = static_cast<uint8_t>(t);
  return c;
}

}  // namespace zonepath
