#include <stdio.h> /* jpeglib.h needs FILE and size_t declared first */
#include <jpeglib.h>
