// liftc subcommands: each registers itself by name, so a new subcommand is one new file. A
// command declares its arguments on its own CLI11 subcommand (typed options, validators, the
// text of its --help) and hands back what runs it once they have parsed.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace lift::liftc {

struct Command {
  std::string name;
  std::string description;  // one line, for `liftc --help`
  // Declares the command's arguments on `cmd`, bound to state the returned function owns; that
  // function runs the command after a successful parse and returns its exit status.
  std::function<std::function<int()>(CLI::App& cmd)> define;
};

// Registers a command at static-initialisation time.
struct CommandRegistration {
  explicit CommandRegistration(Command c);
};

const std::vector<Command>& commands();

// Exit statuses of liftc.
constexpr int kExitOk = 0;
constexpr int kExitWrong = 1;  // e.g. a kernel computed a wrong result
constexpr int kExitError = 2;  // bad input of any kind, usage errors included

}  // namespace lift::liftc
