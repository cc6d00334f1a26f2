/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stackpulse-demo: a small program worth profiling, for "Profile the Demo".
 *
 * Three named threads do recognisable work for a few seconds (parsing,
 * rendering, compressing) through call paths a few frames deep, built with
 * frame pointers, so a first recording shows a real call tree. GCC 12
 * leaves the frame pointer out of leaf functions that use no stack, which
 * would hide their callers: each leaf keeps a volatile local for that. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double run_seconds = 4.0;
static volatile uint64_t sink;

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noinline)) static uint64_t
tokenize (const char *text, size_t len)
{
  volatile uint64_t tokens = 0;

  for (size_t i = 0; i < len; i++)
    tokens += text[i] == ' ' || text[i] == ',';
  return tokens;
}

__attribute__ ((noinline)) static uint64_t
parse_input (char *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    text[i] = (char) ("abc, def ghi"[(i * 7) % 12]);
  return tokenize (text, len);
}

__attribute__ ((noinline)) static uint64_t
rasterize (uint32_t *pixels, int width, int height, int frame)
{
  volatile int rows_done = 0;

  for (int y = 0; y < height; y++, rows_done++)
    for (int x = 0; x < width; x++)
      pixels[y * width + x] = (uint32_t) ((x * frame) ^ (y * 31));
  return pixels[frame % (width * height)] + (uint64_t) rows_done;
}

__attribute__ ((noinline)) static uint64_t
render_frame (uint32_t *pixels, int frame)
{
  return rasterize (pixels, 256, 128, frame);
}

__attribute__ ((noinline)) static uint64_t
deflate_block (const uint8_t *data, size_t len)
{
  volatile uint64_t hash = 1469598103934665603u;

  for (int round = 0; round < 4; round++)
    for (size_t i = 0; i < len; i++)
      hash = (hash ^ data[i]) * 1099511628211u;
  return hash;
}

__attribute__ ((noinline)) static uint64_t
compress (uint8_t *data, size_t len)
{
  for (size_t i = 0; i < len; i++)
    data[i] = (uint8_t) (i * 13);
  return deflate_block (data, len);
}

static void *
parser_thread (void *data)
{
  static char text[1 << 16];
  double end = now () + run_seconds;

  pthread_setname_np (pthread_self (), "parser");
  while (now () < end)
    sink += parse_input (text, sizeof text);
  return NULL;
}

static void *
renderer_thread (void *data)
{
  static uint32_t pixels[256 * 128];
  double end = now () + run_seconds;
  int frame = 0;

  pthread_setname_np (pthread_self (), "renderer");
  while (now () < end)
    sink += render_frame (pixels, frame++);
  return NULL;
}

static void *
compressor_thread (void *data)
{
  static uint8_t block[1 << 15];
  double end = now () + run_seconds;

  pthread_setname_np (pthread_self (), "compressor");
  while (now () < end)
    sink += compress (block, sizeof block);
  return NULL;
}

int
main (int argc,
      char **argv)
{
  void *(*workers[]) (void *) = { parser_thread, renderer_thread, compressor_thread };
  pthread_t threads[3];

  if (argc > 1)
    run_seconds = atof (argv[1]);
  printf ("stackpulse-demo: parsing, rendering and compressing for %.1f s\n", run_seconds);
  for (int i = 0; i < 3; i++)
    pthread_create (&threads[i], NULL, workers[i], NULL);
  for (int i = 0; i < 3; i++)
    pthread_join (threads[i], NULL);
  return 0;
}
