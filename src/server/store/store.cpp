// open_store: the database URL to the store that serves it.
#include "server/store/store.h"

#include <cctype>
#include <charconv>

#include "server/store/postgres_store.h"
#include "server/store/sqlite_store.h"

namespace hisha::server::store {

std::unique_ptr<Store> open_store(const std::string& url, std::string& error) {
    std::string path = url;
    if (path.starts_with("sqlite://"))
        path = path.substr(9);
    else if (path.starts_with("sqlite:"))
        path = path.substr(7);
    if (url.starts_with("postgresql://") || url.starts_with("postgres://"))
        return open_postgres(url, error);
    // Options after '?', joined by '&':
    // - sync=normal: commits survive a crash of the process (kill -9) but not of the machine;
    //   the default, full, also survives a power cut;
    // - wal_mb=N: the size in MB the write-ahead log is brought back from (default 64).
    std::string sync = "FULL";
    int wal_mb = 64;
    if (auto q = path.find('?'); q != std::string::npos) {
        std::string_view rest = std::string_view(path).substr(q + 1);
        while (!rest.empty()) {
            auto amp = rest.find('&');
            std::string_view opt = rest.substr(0, amp);
            rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
            auto eq = opt.find('=');
            std::string_view key = opt.substr(0, eq), value = eq == std::string_view::npos ? "" : opt.substr(eq + 1);
            if (key == "sync") {
                sync.clear();
                for (char c : value)
                    sync += char(std::toupper(static_cast<unsigned char>(c)));
            } else if (key == "wal_mb") {
                int v = 0;
                auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
                if (ec != std::errc() || end != value.data() + value.size() || v < 1 || v > 65536) {
                    error = "wal_mb must be a number of MB from 1 to 65536: " + std::string(value);
                    return nullptr;
                }
                wal_mb = v;
            } else {
                error = "unknown database option '" + std::string(key) + "' (sync, wal_mb)";
                return nullptr;
            }
        }
        path.resize(q);
    }
    if (path.empty()) {
        error = "empty database path";
        return nullptr;
    }
    return open_sqlite(path, error, sync, wal_mb);
}

}  // namespace hisha::server::store
