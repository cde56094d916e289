// liftc: the command-line face of the Lift compiler library (no Qt). Builds one CLI11 parser
// from the registered subcommands, runs the one given, and turns every error into a message and
// an exit status: a usage error (what and where, the command's usage line) and every other user
// error exit with 2.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <new>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "core/support/Diagnostic.h"

namespace lift::liftc {

static std::vector<Command>& registry() {
  static std::vector<Command> r;
  return r;
}

CommandRegistration::CommandRegistration(Command c) { registry().push_back(std::move(c)); }
const std::vector<Command>& commands() { return registry(); }

namespace {

// The message of a parse error in liftc's words: what is wrong and which argument or option.
std::string usageMessage(const CLI::ParseError& e, const CLI::App& app, const CLI::App* cmd) {
  std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    std::vector<std::string> extra = cmd ? cmd->remaining() : app.remaining();
    if (extra.empty()) return what;
    const std::string& first = extra.front();
    if (!cmd) return fmt::format("unknown command '{}'", first);
    return first.size() > 1 && first[0] == '-' ? fmt::format("unknown option '{}'", first)
                                               : fmt::format("unexpected argument '{}'", first);
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e)) {
    if (!cmd)
      return app.remaining().empty() ? "expected a command"
                                     : fmt::format("unknown command '{}'", app.remaining().front());
    for (const CLI::Option* o : cmd->get_options())
      if (o->get_required() && o->count() == 0)
        return !o->get_positional()              ? fmt::format("option '{}' is required", o->get_name())
               : o->get_items_expected_max() > 1 ? fmt::format("missing {}", o->get_name())
                                                 : fmt::format("expected one {}", o->get_name());
    return what;
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && cmd) {
    for (const CLI::Option* o : cmd->get_options()) {
      std::string name = o->get_name();
      if (what.rfind(name + ":", 0) != 0) continue;
      if (what.find("missing") != std::string::npos) return fmt::format("option '{}' needs a value", name);
      if (what.find("At Most") != std::string::npos)
        return fmt::format("option '{}' is given more than once", name);
    }
  }
  return what;
}

const char* const kOutOfMemory =
    "out of memory: the program at these sizes needs more memory than this machine has (smaller --size "
    "values or --small need less)";

int run(int argc, char** argv) {
  CLI::App app("liftc: the command line of Lift Studio (derive OpenCL kernels by rewriting)", "liftc");
  auto formatter = std::make_shared<CLI::Formatter>();
  formatter->label("Usage", "usage");
  app.formatter(formatter);
  app.require_subcommand(1);
  std::map<const CLI::App*, std::function<int()>> runners;
  for (const Command& c : commands()) {
    CLI::App* cmd = app.add_subcommand(c.name, c.description);
    runners[cmd] = c.define(*cmd);
  }
  const CLI::App* cmd = nullptr;
  auto name = [&] { return cmd ? "liftc " + cmd->get_name() : std::string("liftc"); };
  auto usageError = [&](const std::string& message) {
    const CLI::App& where = cmd ? *cmd : app;
    std::string usage = formatter->make_usage(&where, name());
    std::fprintf(stderr, "%s: error: %s\n%s(run '%s --help' for more)\n", name().c_str(), message.c_str(),
                 usage.c_str(), name().c_str());
    return kExitError;
  };
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError&) {
      if (!app.get_subcommands().empty()) cmd = app.get_subcommands().front();
      throw;
    }
    cmd = app.get_subcommands().front();
    int status = runners.at(cmd)();
    // What went to standard output must have arrived: a full disk or a closed pipe is an error.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "%s: error: cannot write to standard output (%s)\n", name().c_str(),
                   std::strerror(errno));
      return kExitError;
    }
    return status;
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);  // the help of the command given, if any
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (argc < 2) {
      std::fputs(app.help().c_str(), stderr);
      return kExitError;
    }
    return usageError(usageMessage(e, app, cmd));
  } catch (const LiftError& e) {
    std::fprintf(stderr, "%s\n", e.diagnostic().format().c_str());
    return kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: %s\n", name().c_str(), kOutOfMemory);
    return kExitError;
  } catch (const std::length_error&) {  // a vector larger than max_size(): as large a request
    std::fprintf(stderr, "%s: error: %s\n", name().c_str(), kOutOfMemory);
    return kExitError;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "%s: error: cannot use '%s': %s\n", name().c_str(), e.path1().c_str(),
                 e.code().message().c_str());
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", name().c_str(), e.what());
    return kExitError;
  }
}

}  // namespace
}  // namespace lift::liftc

int main(int argc, char** argv) { return lift::liftc::run(argc, argv); }
