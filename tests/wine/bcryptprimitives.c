/* Test fixture, not part of the engine: a stand-in for bcryptprimitives.dll, which Rust's
 * std imports (ProcessPrng) on Windows 10 and later and which Wine 8 (Debian 12) lacks.
 * tests/windows_wine.rs builds it with mingw next to ironwood.exe; it forwards ProcessPrng
 * to RtlGenRandom (advapi32's SystemFunction036). Windows itself has the real DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
