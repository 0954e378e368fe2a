/* syscap-dump.c: reads a Sysprof capture back with libsysprof-capture's reader
 *
 * SPDX-FileCopyrightText: 2026 The smprof authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Debian's sysprof ships no sysprof-dump, so the export test reads captures
 * through this. One line per frame of interest, tab-separated:
 *   start TIME / end TIME
 *   process PID TIME CMDLINE
 *   metadata ID TEXT (newlines as \n)
 *   mark PID TIME DURATION GROUP NAME MESSAGE
 *   sample PID TIME ADDR,ADDR,... (innermost first)
 *   jitmap ADDR NAME
 *   other TYPE
 * Times are nanoseconds since the capture's start. Exit 1 if a frame the reader
 * announced cannot be read. The reader's peek stops quietly at a truncated
 * frame as at the end, so a caller checks the frames it counts (the export test
 * checks every mark and every sample).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sysprof-capture.h>

static void
print_escaped (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\n')
        fputs ("\\n", stdout);
      else if (*p == '\t')
        fputs ("\\t", stdout);
      else
        fputc (*p, stdout);
    }
}

int
main (int   argc,
      char *argv[])
{
  SysprofCaptureReader *reader;
  SysprofCaptureFrameType type;
  int64_t start;

  if (argc != 2)
    {
      fprintf (stderr, "usage: syscap-dump FILE.syscap\n");
      return 2;
    }

  reader = sysprof_capture_reader_new (argv[1]);
  if (reader == NULL)
    {
      perror (argv[1]);
      return 1;
    }

  start = sysprof_capture_reader_get_start_time (reader);
  printf ("start\t%" PRId64 "\n", start);

  while (sysprof_capture_reader_peek_type (reader, &type))
    {
      if (type == SYSPROF_CAPTURE_FRAME_PROCESS)
        {
          const SysprofCaptureProcess *process = sysprof_capture_reader_read_process (reader);

          if (process == NULL)
            return 1;
          printf ("process\t%d\t%" PRId64 "\t", process->frame.pid, process->frame.time - start);
          print_escaped (process->cmdline);
          putchar ('\n');
        }
      else if (type == SYSPROF_CAPTURE_FRAME_METADATA)
        {
          const SysprofCaptureMetadata *metadata = sysprof_capture_reader_read_metadata (reader);

          if (metadata == NULL)
            return 1;
          printf ("metadata\t%s\t", metadata->id);
          print_escaped (metadata->metadata);
          putchar ('\n');
        }
      else if (type == SYSPROF_CAPTURE_FRAME_MARK)
        {
          const SysprofCaptureMark *mark = sysprof_capture_reader_read_mark (reader);

          if (mark == NULL)
            return 1;
          printf ("mark\t%d\t%" PRId64 "\t%" PRId64 "\t%s\t%s\t", mark->frame.pid, mark->frame.time - start,
                  mark->duration, mark->group, mark->name);
          print_escaped (mark->message);
          putchar ('\n');
        }
      else if (type == SYSPROF_CAPTURE_FRAME_SAMPLE)
        {
          const SysprofCaptureSample *sample = sysprof_capture_reader_read_sample (reader);

          if (sample == NULL)
            return 1;
          printf ("sample\t%d\t%" PRId64 "\t", sample->frame.pid, sample->frame.time - start);
          for (unsigned i = 0; i < sample->n_addrs; i++)
            printf ("%s%" PRIx64, i > 0 ? "," : "", (uint64_t) sample->addrs[i]);
          putchar ('\n');
        }
      else if (type == SYSPROF_CAPTURE_FRAME_JITMAP)
        {
          const SysprofCaptureJitmap *jitmap = sysprof_capture_reader_read_jitmap (reader);
          const uint8_t *p;

          if (jitmap == NULL)
            return 1;
          p = jitmap->data;
          for (unsigned i = 0; i < jitmap->n_jitmaps; i++)
            {
              SysprofCaptureAddress address;

              memcpy (&address, p, sizeof address);
              p += sizeof address;
              printf ("jitmap\t%" PRIx64 "\t", (uint64_t) address);
              print_escaped ((const char *) p);
              putchar ('\n');
              p += strlen ((const char *) p) + 1;
            }
        }
      else
        {
          printf ("other\t%d\n", (int) type);
          if (!sysprof_capture_reader_skip (reader))
            return 1;
        }
    }

  printf ("end\t%" PRId64 "\n", sysprof_capture_reader_get_end_time (reader) - start);
  sysprof_capture_reader_unref (reader);

  return 0;
}
