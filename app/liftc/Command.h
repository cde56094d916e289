// liftc subcommands: each registers itself by name, so a new subcommand is one new file.
#pragma once

#include <string>
#include <vector>

namespace lift::liftc {

// Parsed command line of one subcommand: positional arguments and --options in order.
struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // ("--size", "N=16"); flags get ""

  bool has(const std::string& opt) const;
  // Last value of an option, or `def` when absent.
  std::string get(const std::string& opt, const std::string& def = "") const;
  std::vector<std::string> all(const std::string& opt) const;
};

struct Command {
  std::string name;
  std::string usage;                      // one line: "simplify EXPR [--range VAR=LO:HI]..."
  std::vector<std::string> flags;         // options that take no value
  std::vector<std::string> valueOptions;  // options that take a value
  int (*run)(const Args&);
};

// Registers a command at static-initialisation time.
struct CommandRegistration {
  explicit CommandRegistration(Command c);
};

const std::vector<Command>& commands();

// Exit statuses of liftc.
constexpr int kExitOk = 0;
constexpr int kExitWrong = 1;  // e.g. a kernel computed a wrong result
constexpr int kExitError = 2;  // bad input of any kind

}  // namespace lift::liftc
