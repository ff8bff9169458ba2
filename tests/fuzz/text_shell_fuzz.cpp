// libFuzzer target for the text protocol (Shoogi Server's commands): two connections
// (server_fuzz.h), so that challenges, games, undo and chat between two players are reached.
// No line may crash, leak or hang, and no reply may run away (a listing is bounded).
#include "server/proto/text_shell.h"
#include "server_fuzz.h"

using namespace hisha::server;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::two_connections<proto::TextShell>(data, size,
                                            [](const std::string& reply) { FUZZ_CHECK(reply.size() < (1u << 20)); });
    return 0;
}
