// liftc: the command-line face of the Lift compiler library (no Qt). Dispatches to the
// registered subcommands; every user error ends with a message and exit status 2.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "app/liftc/Command.h"
#include "core/support/Diagnostic.h"

namespace lift::liftc {

static std::vector<Command>& registry() {
  static std::vector<Command> r;
  return r;
}

CommandRegistration::CommandRegistration(Command c) { registry().push_back(std::move(c)); }
const std::vector<Command>& commands() { return registry(); }

bool Args::has(const std::string& opt) const {
  for (auto& [k, v] : options)
    if (k == opt) return true;
  return false;
}

std::string Args::get(const std::string& opt, const std::string& def) const {
  std::string r = def;
  for (auto& [k, v] : options)
    if (k == opt) r = v;
  return r;
}

std::vector<std::string> Args::all(const std::string& opt) const {
  std::vector<std::string> r;
  for (auto& [k, v] : options)
    if (k == opt) r.push_back(v);
  return r;
}

static void usage(FILE* out) {
  std::fprintf(out, "usage: liftc COMMAND [ARGS]\n\ncommands:\n");
  for (auto& c : commands()) std::fprintf(out, "  liftc %s\n", c.usage.c_str());
}

static bool contains(const std::vector<std::string>& v, const std::string& s) {
  for (auto& x : v)
    if (x == s) return true;
  return false;
}

static int dispatch(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? kExitError : kExitOk;
  }
  std::string name = argv[1];
  const Command* cmd = nullptr;
  for (auto& c : commands())
    if (c.name == name) cmd = &c;
  if (!cmd) {
    std::fprintf(stderr, "liftc: error: unknown command '%s'\n", name.c_str());
    usage(stderr);
    return kExitError;
  }
  Args args;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("usage: liftc %s\n", cmd->usage.c_str());
      return kExitOk;
    }
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      std::string key = a, value;
      if (auto eq = a.find('='); eq != std::string::npos && !contains(cmd->flags, a.substr(0, eq))) {
        key = a.substr(0, eq);
        value = a.substr(eq + 1);
        if (!contains(cmd->valueOptions, key)) {
          std::fprintf(stderr, "liftc %s: error: unknown option '%s'\n", name.c_str(), key.c_str());
          return kExitError;
        }
      } else if (contains(cmd->flags, a)) {
        // flag
      } else if (contains(cmd->valueOptions, a)) {
        if (i + 1 >= argc) {
          std::fprintf(stderr, "liftc %s: error: option '%s' needs a value\n", name.c_str(), a.c_str());
          return kExitError;
        }
        value = argv[++i];
      } else {
        std::fprintf(stderr, "liftc %s: error: unknown option '%s'\nusage: liftc %s\n", name.c_str(),
                     a.c_str(), cmd->usage.c_str());
        return kExitError;
      }
      args.options.emplace_back(key, value);
    } else if (a == "-o" && contains(cmd->valueOptions, "-o")) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "liftc %s: error: option '-o' needs a value\n", name.c_str());
        return kExitError;
      }
      args.options.emplace_back("-o", argv[++i]);
    } else {
      args.positional.push_back(a);
    }
  }
  try {
    int status = cmd->run(args);
    // What went to standard output must have arrived: a full disk or a closed pipe is an error.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "liftc %s: error: cannot write to standard output (%s)\n", name.c_str(),
                   std::strerror(errno));
      return kExitError;
    }
    return status;
  } catch (const LiftError& e) {
    std::fprintf(stderr, "%s\n", e.diagnostic().format().c_str());
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liftc %s: error: %s\n", name.c_str(), e.what());
    return kExitError;
  }
}

}  // namespace lift::liftc

int main(int argc, char** argv) { return lift::liftc::dispatch(argc, argv); }
