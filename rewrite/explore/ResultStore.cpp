// The SQLite result store (see ResultStore.h and docs/RESULTS.md).
#include "rewrite/explore/ResultStore.h"

#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <ostream>

#include "core/support/Diagnostic.h"
#include "core/support/FileRead.h"

namespace lift::explore {

namespace {

constexpr int kSchemaVersion = 1;

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS searches (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  program     TEXT NOT NULL,
  start_hash  TEXT NOT NULL,
  strategy    TEXT NOT NULL,
  seed        INTEGER NOT NULL,
  device      TEXT NOT NULL,
  sizes       TEXT NOT NULL,
  shard       TEXT NOT NULL DEFAULT '',
  limits      TEXT NOT NULL DEFAULT '',
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  stop_reason TEXT,
  evaluated   INTEGER NOT NULL DEFAULT 0,
  valid       INTEGER NOT NULL DEFAULT 0,
  best_ms     REAL,
  host        TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS sources (
  hash   TEXT PRIMARY KEY,
  source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS kernels (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  search_id    INTEGER REFERENCES searches(id),
  kernel_key   TEXT NOT NULL,
  program_hash TEXT NOT NULL,
  start_hash   TEXT NOT NULL,
  program      TEXT NOT NULL,
  derivation   TEXT NOT NULL,
  parameters   TEXT NOT NULL,
  strategy     TEXT NOT NULL,
  phase        TEXT NOT NULL,
  device       TEXT NOT NULL,
  sizes        TEXT NOT NULL,
  source_hash  TEXT NOT NULL,
  launch       TEXT NOT NULL,
  status       TEXT NOT NULL,
  median_ms    REAL,
  min_ms       REAL,
  max_ms       REAL,
  gflops       REAL,
  gbs          REAL,
  max_rel_err  REAL,
  build_ms     REAL,
  elapsed_s    REAL,
  message      TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS kernels_key ON kernels(kernel_key, device, sizes);
CREATE INDEX IF NOT EXISTS kernels_program ON kernels(program_hash, parameters, device, sizes);
CREATE INDEX IF NOT EXISTS kernels_best ON kernels(device, sizes, status, median_ms);
)sql";

const char* kKernelColumns =
    "id, search_id, program_hash, start_hash, program, derivation, parameters, strategy, phase, device, "
    "sizes, "
    "source_hash, launch, status, median_ms, min_ms, max_ms, gflops, gbs, max_rel_err, build_ms, elapsed_s, "
    "message, "
    "created_at";

// A damaged store is reported as such, with the command that lists its problems.
std::string damaged(const std::string& path, const std::string& what) {
  return fmt::format(
      "the result store '{}' is damaged ({}); `liftc results --check {}` runs SQLite's integrity check on it",
      path, what, path);
}

// The error of a failed SQLite call on `db`: a file that is not a database or a damaged one is
// said to be so; anything else is SQLite's message after `context`.
LiftError sqliteError(sqlite3* db, const std::string& context) {
  int code = sqlite3_errcode(db) & 0xff;
  const char* file = sqlite3_db_filename(db, "main");
  std::string path = file ? file : "";
  if (code == SQLITE_NOTADB)
    return LiftError(fmt::format("'{}' is not a result store (not an SQLite database)", path));
  if (code == SQLITE_CORRUPT) return LiftError(damaged(path, sqlite3_errmsg(db)));
  return LiftError(fmt::format("{}: {}", context, sqlite3_errmsg(db)));
}

class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr) != SQLITE_OK)
      throw sqliteError(db, fmt::format("result store (in: {})", sql));
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  Stmt& bindNull(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
  }
  // True while there is a row.
  bool step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw sqliteError(db_, "result store");
  }
  std::string text(int c) const {
    auto* p = sqlite3_column_text(s_, c);
    return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(s_, c)) : std::string();
  }
  int64_t integer(int c) const { return sqlite3_column_int64(s_, c); }
  double real(int c) const { return sqlite3_column_double(s_, c); }
  sqlite3_stmt* get() { return s_; }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

KernelRecord readKernel(const Stmt& s) {
  KernelRecord k;
  int c = 0;
  k.id = s.integer(c++);
  k.searchId = s.integer(c++);
  k.programHash = s.text(c++);
  k.startHash = s.text(c++);
  k.program = s.text(c++);
  k.derivation = s.text(c++);
  k.parameters = s.text(c++);
  k.strategy = s.text(c++);
  k.phase = s.text(c++);
  k.device = s.text(c++);
  k.sizes = s.text(c++);
  k.sourceHash = s.text(c++);
  k.launch = s.text(c++);
  k.status = s.text(c++);
  k.medianMs = s.real(c++);
  k.minMs = s.real(c++);
  k.maxMs = s.real(c++);
  k.gflops = s.real(c++);
  k.gbs = s.real(c++);
  k.maxRelErr = s.real(c++);
  k.buildMs = s.real(c++);
  k.elapsedS = s.real(c++);
  k.message = s.text(c++);
  k.createdAt = s.text(c++);
  return k;
}

// Binds a kernel's columns (all but id) from parameter `first` on, in kKernelColumns order.
void bindKernel(Stmt& s, const KernelRecord& k, int first, int64_t searchId) {
  int c = first;
  if (searchId > 0)
    s.bind(c++, searchId);
  else
    s.bindNull(c++);
  // One statement a column: the parameter index advances in a known order (a chain of binds that
  // each take c++ relies on C++17's order of evaluation, and GCC warns of it).
  for (const std::string* text :
       {&k.programHash, &k.startHash, &k.program, &k.derivation, &k.parameters, &k.strategy, &k.phase,
        &k.device, &k.sizes, &k.sourceHash, &k.launch, &k.status})
    s.bind(c++, *text);
  for (double number : {k.medianMs, k.minMs, k.maxMs, k.gflops, k.gbs, k.maxRelErr, k.buildMs, k.elapsedS})
    s.bind(c++, number);
  s.bind(c++, k.message);
  s.bind(c++, k.createdAt.empty() ? ResultStore::now() : k.createdAt);
}

SearchRecord readSearch(const Stmt& s) {
  SearchRecord r;
  int c = 0;
  r.id = s.integer(c++);
  r.program = s.text(c++);
  r.startHash = s.text(c++);
  r.strategy = s.text(c++);
  r.seed = static_cast<uint64_t>(s.integer(c++));
  r.device = s.text(c++);
  r.sizes = s.text(c++);
  r.shard = s.text(c++);
  r.limits = s.text(c++);
  r.startedAt = s.text(c++);
  r.finishedAt = s.text(c++);
  r.stopReason = s.text(c++);
  r.evaluated = s.integer(c++);
  r.valid = s.integer(c++);
  r.bestMs = s.real(c++);
  r.host = s.text(c++);
  return r;
}

const char* kSearchColumns =
    "id, program, start_hash, strategy, seed, device, sizes, shard, limits, started_at, finished_at, "
    "stop_reason, "
    "evaluated, valid, best_ms, host";

std::string csvField(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string out = "\"";
  for (char ch : v) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string csvNumber(double v) { return v == 0 ? std::string("") : fmt::format("{:.6g}", v); }

// How a read-only open names the file to SQLite. Without a "-wal" beside it no process is
// writing it (a writer in WAL mode keeps one while it is open), so it is opened immutable: SQLite
// then creates no "-shm" or "-wal" of its own, which a read must not leave behind. With one, a
// plain read-only open sees what the writer committed.
std::string readOnlyUri(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#')
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    else
      uri += c;
  }
  std::error_code ec;
  if (!std::filesystem::exists(path + "-wal", ec)) uri += "?immutable=1";
  return uri;
}

// A FIFO or device given as a store would block SQLite's open or be read without end.
void refuseNonRegularFile(const std::string& path) {
  if (std::string kind = nonRegularKind(path); !kind.empty())
    throw LiftError(fmt::format("cannot open the result store '{}': it is {}, not a file", path, kind));
}

}  // namespace

std::string hex64(uint64_t v) { return fmt::format("{:016x}", v); }

std::string hashText(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return hex64(h);
}

std::string kernelSourceHash(const std::string& source) {
  size_t pos = 0;
  while (source.compare(pos, 2, "//") == 0) {
    size_t nl = source.find('\n', pos);
    if (nl == std::string::npos) return hashText("");
    pos = nl + 1;
  }
  return hashText(source.substr(pos));
}

std::string KernelRecord::kernelKey() const {
  return sourceHash.empty() ? "p:" + programHash + "|" + parameters : "s:" + sourceHash + "|" + launch;
}

std::string KernelRecord::programKey() const {
  return programHash + "|" + parameters + "|" + device + "|" + sizes;
}

std::string ResultStore::now() {
  auto t = std::chrono::system_clock::now();
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", buf, static_cast<int>(ms));
}

ResultStore::ResultStore(const std::string& path, Access access) : path_(path) {
  refuseNonRegularFile(path);
  bool readOnly = access == Access::ReadOnly;
  int flags = SQLITE_OPEN_FULLMUTEX | (readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                                                : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  std::string name = readOnly ? readOnlyUri(path) : path;
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw LiftError(fmt::format("cannot open the result store '{}': {}", path, msg));
  }
  sqlite3_busy_timeout(db_, 30'000);  // several processes (one per device) may share the file
  try {
    // The schema version and which tables the file has (statements end before the journal mode
    // changes below).
    int64_t version = 0, tables = 0, ours = 0;
    {
      Stmt v(db_, "PRAGMA user_version");
      v.step();
      version = v.integer(0);
      Stmt t(
          db_,
          "SELECT count(*), coalesce(sum(name IN ('searches', 'sources', 'kernels')), 0) FROM sqlite_master "
          "WHERE type = 'table'");
      t.step();
      tables = t.integer(0);
      ours = t.integer(1);
    }
    if (version > kSchemaVersion)
      throw LiftError(fmt::format("result store '{}' has schema version {}, newer than this liftc ({})", path,
                                  version, kSchemaVersion));
    // Reading needs a whole store; writing may start one in an empty file, but never adds its
    // tables to an SQLite database of someone else's (tables, none of ours).
    if (readOnly && (version == 0 || ours != 3))
      throw LiftError(
          fmt::format("'{}' is not a result store (an SQLite database without the tables of "
                      "Lift Studio's results); it was left as it is",
                      path));
    // What is read must be sound: a damaged store is refused, not read in part.
    if (readOnly) {
      if (std::vector<std::string> problems = integrityProblems(db_, 3); !problems.empty())
        throw LiftError(damaged(path, fmt::format("SQLite's integrity check: {}{}", problems.front(),
                                                  problems.size() > 1 ? ", ..." : "")));
    }
    if (!readOnly && version == 0 && tables > 0 && ours == 0)
      throw LiftError(fmt::format(
          "'{}' is not a result store (an SQLite database with other tables); it was left as it is", path));
    if (readOnly) return;
    // WAL: readers do not block the writer, and each committed kernel survives a killed process.
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA foreign_keys=ON");
    exec("BEGIN IMMEDIATE");
    exec(kSchema);
    exec(fmt::format("PRAGMA user_version={}", kSchemaVersion).c_str());
    exec("COMMIT");
  } catch (const LiftError&) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

std::vector<std::string> ResultStore::integrityProblems(sqlite3* db, size_t max) {
  std::vector<std::string> problems;
  sqlite3_stmt* s = nullptr;
  std::string sql = fmt::format("PRAGMA integrity_check({})", max);
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
    if ((sqlite3_errcode(db) & 0xff) != SQLITE_CORRUPT) throw sqliteError(db, "result store");
    return {sqlite3_errmsg(db)};  // so damaged that the check cannot start
  }
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    auto* text = sqlite3_column_text(s, 0);
    std::string line = text ? reinterpret_cast<const char*>(text) : "";
    if (line != "ok") problems.push_back(line);
  }
  if (rc != SQLITE_DONE) {
    int code = sqlite3_errcode(db) & 0xff;
    std::string msg = sqlite3_errmsg(db);
    sqlite3_finalize(s);
    if (code != SQLITE_CORRUPT) throw sqliteError(db, "result store");
    problems.push_back(msg);
    return problems;
  }
  sqlite3_finalize(s);
  return problems;
}

std::vector<std::string> ResultStore::integrityProblems(const std::string& path) {
  refuseNonRegularFile(path);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(readOnlyUri(path).c_str(), &db,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw LiftError(fmt::format("cannot open the result store '{}': {}", path, msg));
  }
  try {
    std::vector<std::string> problems = integrityProblems(db, kMaxIntegrityProblems);
    sqlite3_close(db);
    return problems;
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
}

ResultStore::~ResultStore() {
  if (db_) sqlite3_close(db_);
}

void ResultStore::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    sqlite3_free(err);
    throw sqliteError(db_, fmt::format("result store '{}'", path_));
  }
}

int64_t ResultStore::beginSearch(SearchRecord s) {
  std::lock_guard lock(mutex_);
  if (s.startedAt.empty()) s.startedAt = now();
  if (s.host.empty()) {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) == 0) s.host = buf;
  }
  Stmt st(db_,
          "INSERT INTO searches (program, start_hash, strategy, seed, device, sizes, shard, limits, "
          "started_at, host) "
          "VALUES (?,?,?,?,?,?,?,?,?,?)");
  st.bind(1, s.program).bind(2, s.startHash).bind(3, s.strategy).bind(4, static_cast<int64_t>(s.seed));
  st.bind(5, s.device)
      .bind(6, s.sizes)
      .bind(7, s.shard)
      .bind(8, s.limits)
      .bind(9, s.startedAt)
      .bind(10, s.host);
  st.step();
  return sqlite3_last_insert_rowid(db_);
}

void ResultStore::finishSearch(int64_t id, const std::string& stopReason, int64_t evaluated, int64_t valid,
                               double bestMs) {
  std::lock_guard lock(mutex_);
  Stmt st(db_,
          "UPDATE searches SET finished_at=?, stop_reason=?, evaluated=?, valid=?, best_ms=? WHERE id=?");
  st.bind(1, now()).bind(2, stopReason).bind(3, evaluated).bind(4, valid);
  if (bestMs > 0)
    st.bind(5, bestMs);
  else
    st.bindNull(5);
  st.bind(6, id);
  st.step();
}

std::vector<SearchRecord> ResultStore::searches() {
  std::lock_guard lock(mutex_);
  Stmt st(db_, fmt::format("SELECT {} FROM searches ORDER BY id", kSearchColumns));
  std::vector<SearchRecord> out;
  while (st.step()) out.push_back(readSearch(st));
  return out;
}

int64_t ResultStore::addKernel(const KernelRecord& k, const std::string& source) {
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    std::string key = k.kernelKey();
    {
      Stmt find(db_, "SELECT id FROM kernels WHERE kernel_key=? AND device=? AND sizes=?");
      find.bind(1, key).bind(2, k.device).bind(3, k.sizes);
      if (find.step()) {
        int64_t id = find.integer(0);
        exec("COMMIT");
        return id;
      }
    }
    if (!source.empty() && !k.sourceHash.empty()) {
      Stmt src(db_, "INSERT OR IGNORE INTO sources (hash, source) VALUES (?, ?)");
      src.bind(1, k.sourceHash).bind(2, source);
      src.step();
    }
    Stmt ins(
        db_,
        fmt::format(
            "INSERT INTO kernels (kernel_key, {}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            std::string(kKernelColumns).substr(4)));
    ins.bind(1, key);
    bindKernel(ins, k, 2, k.searchId);
    ins.step();
    int64_t id = sqlite3_last_insert_rowid(db_);
    exec("COMMIT");
    return id;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<KernelRecord> ResultStore::kernels(const KernelQuery& q) {
  std::lock_guard lock(mutex_);
  std::string sql = fmt::format("SELECT {} FROM kernels WHERE 1", kKernelColumns);
  std::vector<std::string> binds;
  if (!q.device.empty()) sql += " AND device=?", binds.push_back(q.device);
  if (!q.sizes.empty()) sql += " AND sizes=?", binds.push_back(q.sizes);
  if (!q.startHash.empty()) sql += " AND start_hash=?", binds.push_back(q.startHash);
  if (q.searchId > 0) sql += fmt::format(" AND search_id={}", q.searchId);
  if (q.validOnly) sql += " AND status='ok'";
  sql += q.bestFirst ? " ORDER BY (status='ok') DESC, median_ms ASC, id ASC" : " ORDER BY id";
  if (q.limit > 0) sql += fmt::format(" LIMIT {}", q.limit);
  Stmt st(db_, sql);
  for (size_t i = 0; i < binds.size(); ++i) st.bind(static_cast<int>(i + 1), binds[i]);
  std::vector<KernelRecord> out;
  while (st.step()) out.push_back(readKernel(st));
  return out;
}

std::optional<KernelRecord> ResultStore::bestKernel(const std::string& startHash, const std::string& sizes,
                                                    const std::string& device) {
  KernelQuery q;
  q.startHash = startHash;
  q.sizes = sizes;
  q.device = device;
  q.validOnly = true;
  q.bestFirst = true;
  q.limit = 1;
  std::vector<KernelRecord> best = kernels(q);
  if (best.empty()) return std::nullopt;
  return std::move(best.front());
}

std::optional<KernelRecord> ResultStore::kernel(int64_t id) {
  std::lock_guard lock(mutex_);
  Stmt st(db_, fmt::format("SELECT {} FROM kernels WHERE id=?", kKernelColumns));
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return readKernel(st);
}

std::optional<std::string> ResultStore::source(const std::string& sourceHash) {
  std::lock_guard lock(mutex_);
  Stmt st(db_, "SELECT source FROM sources WHERE hash=?");
  st.bind(1, sourceHash);
  if (!st.step()) return std::nullopt;
  return st.text(0);
}

int64_t ResultStore::count(bool validOnly) {
  std::lock_guard lock(mutex_);
  Stmt st(db_, validOnly ? "SELECT COUNT(*) FROM kernels WHERE status='ok'" : "SELECT COUNT(*) FROM kernels");
  st.step();
  return st.integer(0);
}

void ResultStore::exportCsv(std::ostream& out, const KernelQuery& q) {
  out << "id,search_id,program,program_hash,start_hash,strategy,phase,device,sizes,parameters,launch,source_"
         "hash,"
         "status,median_ms,min_ms,max_ms,gflops,gbs,max_rel_err,build_ms,elapsed_s,created_at,message,"
         "derivation\n";
  for (const KernelRecord& k : kernels(q)) {
    std::string deriv = k.derivation;
    for (char& ch : deriv)
      if (ch == '\n') ch = ';';
    out << k.id << ',' << (k.searchId ? std::to_string(k.searchId) : "") << ',' << csvField(k.program) << ','
        << k.programHash << ',' << k.startHash << ',' << csvField(k.strategy) << ',' << csvField(k.phase)
        << ',' << csvField(k.device) << ',' << csvField(k.sizes) << ',' << csvField(k.parameters) << ','
        << csvField(k.launch) << ',' << k.sourceHash << ',' << k.status << ',' << csvNumber(k.medianMs) << ','
        << csvNumber(k.minMs) << ',' << csvNumber(k.maxMs) << ',' << csvNumber(k.gflops) << ','
        << csvNumber(k.gbs) << ',' << csvNumber(k.maxRelErr) << ',' << csvNumber(k.buildMs) << ','
        << csvNumber(k.elapsedS) << ',' << k.createdAt << ',' << csvField(k.message) << ',' << csvField(deriv)
        << '\n';
  }
}

int64_t ResultStore::merge(const std::string& otherPath) {
  if (otherPath == path_)
    throw LiftError(fmt::format("cannot merge the result store '{}' into itself", path_));
  ResultStore other(otherPath, Access::ReadOnly);  // merging never changes the stores merged
  std::vector<SearchRecord> searches = other.searches();
  std::vector<KernelRecord> ks = other.kernels();
  std::lock_guard lock(mutex_);
  exec("BEGIN IMMEDIATE");
  int64_t added = 0;
  try {
    std::map<int64_t, int64_t> searchIds;  // other's id -> ours
    for (const SearchRecord& s : searches) {
      // The same search merged twice (or merged back) keeps one row: match by start time, host
      // and strategy.
      Stmt find(
          db_,
          "SELECT id FROM searches WHERE started_at=? AND host=? AND strategy=? AND shard=? AND device=?");
      find.bind(1, s.startedAt).bind(2, s.host).bind(3, s.strategy).bind(4, s.shard).bind(5, s.device);
      if (find.step()) {
        searchIds[s.id] = find.integer(0);
        continue;
      }
      Stmt st(db_, fmt::format("INSERT INTO searches ({}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                               std::string(kSearchColumns).substr(4)));
      int c = 1;
      for (const std::string* text : {&s.program, &s.startHash, &s.strategy}) st.bind(c++, *text);
      st.bind(c++, static_cast<int64_t>(s.seed));
      for (const std::string* text : {&s.device, &s.sizes, &s.shard, &s.limits, &s.startedAt})
        st.bind(c++, *text);
      if (s.finishedAt.empty())
        st.bindNull(c++);
      else
        st.bind(c++, s.finishedAt);
      if (s.stopReason.empty())
        st.bindNull(c++);
      else
        st.bind(c++, s.stopReason);
      st.bind(c++, s.evaluated);
      st.bind(c++, s.valid);
      if (s.bestMs > 0)
        st.bind(c++, s.bestMs);
      else
        st.bindNull(c++);
      st.bind(c++, s.host);
      st.step();
      searchIds[s.id] = sqlite3_last_insert_rowid(db_);
    }
    Stmt ins(db_, fmt::format("INSERT OR IGNORE INTO kernels (kernel_key, {}) VALUES "
                              "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                              std::string(kKernelColumns).substr(4)));
    Stmt src(db_, "INSERT OR IGNORE INTO sources (hash, source) VALUES (?, ?)");
    for (const KernelRecord& k : ks) {
      sqlite3_reset(ins.get());
      sqlite3_clear_bindings(ins.get());
      ins.bind(1, k.kernelKey());
      auto it = searchIds.find(k.searchId);
      bindKernel(ins, k, 2, it == searchIds.end() ? 0 : it->second);
      ins.step();
      if (sqlite3_changes(db_) > 0) {
        ++added;
        if (!k.sourceHash.empty()) {
          if (auto text = other.source(k.sourceHash)) {
            sqlite3_reset(src.get());
            src.bind(1, k.sourceHash).bind(2, *text);
            src.step();
          }
        }
      }
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return added;
}

}  // namespace lift::explore
