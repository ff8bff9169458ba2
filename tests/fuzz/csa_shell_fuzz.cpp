// libFuzzer target for the CSA server protocol: two connections (server_fuzz.h), so that LOGIN,
// the game offer, AGREE/REJECT, moves, %TORYO, %KACHI, %%CHAT, %%MONITOR2ON and the x1 commands
// meet each other. No line may crash, leak or hang.
#include "server/proto/csa_shell.h"
#include "server_fuzz.h"

using namespace hisha::server;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::two_connections<proto::CsaShell>(data, size, [](const std::string& reply) { FUZZ_CHECK(reply.size() < (1u << 20)); });
    return 0;
}
