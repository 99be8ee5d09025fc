// ISA-L (Intel's Intelligent Storage Acceleration Library): the PNG reader's inflate and CRC.
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
