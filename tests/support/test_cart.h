// The oriented 1 x 2 cart the agent tests share: default terrain costs,
// backward steps x 2, turns 1 each, 4- or 8-connected.
#ifndef ZONEPATH_TESTS_SUPPORT_TEST_CART_H_
#define ZONEPATH_TESTS_SUPPORT_TEST_CART_H_

#include <string>

#include "zonepath/agents/agent_class.h"

namespace zonepath::testing {

inline AgentClass TestCart(Connectivity connectivity = Connectivity::kFour,
                           std::string name = "cart") {
  AgentClass c = AgentClass::Default();
  c.name = std::move(name);
  c.length = 2;
  c.connectivity = connectivity;
  c.oriented = true;
  c.backward_factor = 2.0;
  c.turn_cost = 1.0;
  return c;
}

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_TEST_CART_H_
