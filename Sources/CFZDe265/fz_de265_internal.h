#ifndef FZ_DE265_INTERNAL_H
#define FZ_DE265_INTERNAL_H

/* What fz_de265.c shares with fz_de265_blocks.c (not part of the shim's interface). */

#include "fz_de265.h"

#include <libde265/de265.h>

/* Takes the decoded picture: FZ_DE265_OK or why not (the last picture taken is the tile). */
typedef int (*fz_de265_take)(const struct de265_image *img, void *context, fz_de265_report *report);

/* Checks hvcC and the data as fz_de265_decode_tile does, decodes them on a decoder of its
   own and hands every picture to `take`. */
int fz_de265_decode_with(const uint8_t *hvcc, size_t hvcc_size, const uint8_t *data, size_t data_size,
                         int alpha, int workers, fz_de265_take take, void *context, fz_de265_report *report);

/* The matrix and range the conversion uses: the grid's nclx, else the picture's VUI. */
void fz_de265_picture_matrix(const struct de265_image *img, const fz_de265_colour *colour, int *matrix,
                             int *full);

/* The float factors of the YCbCr -> RGB matrix `matrix` (R's Cr, G's Cb, G's Cr, B's Cb). */
void fz_de265_coefficients(int matrix, float k[4]);

#endif
