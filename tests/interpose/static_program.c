/* A program linked statically: LD_PRELOAD never reaches it, so `mheta run`
 * refuses it before it starts (it leaves a marker when it runs). */
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc > 1) {
    FILE* marker = fopen(argv[1], "w");
    if (marker != NULL) fclose(marker);
  }
  return 0;
}
