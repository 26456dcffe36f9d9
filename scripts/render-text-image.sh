#!/usr/bin/env bash
# Renders a text file's lines as printed text (black on white, DejaVu Sans 30 pt from Debian's
# fonts-dejavu-core, ImageMagick from Debian's imagemagick): the example's and the OCR test's
# image, made on the machine instead of committed.
#   render-text-image.sh TEXT.txt OUT.png
set -euo pipefail
text="$1"
out="$2"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[[ -f "${font}" ]] || { echo "render-text-image: ${font} is missing (fonts-dejavu-core)" >&2; exit 1; }
command -v convert >/dev/null || { echo "render-text-image: convert is missing (imagemagick)" >&2; exit 1; }
# (label: takes the text itself: Debian's ImageMagick policy refuses label:@FILE.)
convert -background white -fill black -font "${font}" -pointsize 30 -interline-spacing 14 -gravity West \
  label:"$(cat "${text}")" -bordercolor white -border 32 -type TrueColor -depth 8 "PNG24:${out}"
