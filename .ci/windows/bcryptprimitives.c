/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, which Wine 8 (the
 * Wine Debian 12 ships) lacks. Rust's std on Windows imports one function
 * from it, ProcessPrng, to seed HashMap keys; without the DLL no Rust
 * program starts under that Wine. This implements ProcessPrng with
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 *
 * Built by .ci/windows/wine-env.sh (for wine-smoke.sh and
 * wine-unit-tests.sh) with MinGW-w64 and copied next to the .exe files
 * under test only. Never shipped: real Windows has the DLL.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
