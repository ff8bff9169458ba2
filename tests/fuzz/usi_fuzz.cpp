// libFuzzer target for `hisha usi`'s input: each line of the input is a GUI command. One engine
// serves the whole run (as one GUI session does), with a 1 MB hash; after each input a search
// still running is stopped and waited for (finish_search), so that nothing writes to the
// output while it is emptied. `perft` and `bench` are left out:
// their work grows with their argument by design, which is no fault to find. No command may
// crash, leak or hang.
#include <sstream>
#include <string>

#include "fuzz_check.h"
#include "protocol/usi_engine.h"

namespace {

struct Session {
    std::istringstream in;
    std::ostringstream out;
    hisha::protocol::UsiEngine usi{in, out};
    Session() { usi.handle("setoption name USI_Hash value 1"); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Session s;
    std::string_view in(reinterpret_cast<const char*>(data), size);
    while (!in.empty()) {
        auto nl = in.find('\n');
        std::string line(in.substr(0, nl));
        in.remove_prefix(nl == std::string_view::npos ? in.size() : nl + 1);
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first == "perft" || first == "bench" || first == "quit")
            continue;
        if (first == "setoption" && line.find("USI_Hash") != std::string::npos)
            continue;  // (sizes up to 64 GB are allowed: a memory limit, not a fault)
        s.usi.handle(line);
    }
    s.usi.finish_search();
    s.out.str({});
    return 0;
}
