#!/usr/bin/env bash
# Generates the short self-hosted training clips in media/ (title cards with captions), so the
# default training list plays offline. Needs Debian's ffmpeg and fonts-dejavu-core:
#   apt-get install ffmpeg fonts-dejavu-core && services/api/training/generate-media.sh
# Each clip is H.264 in MP4 (every browser plays it), 640x360, 10 frames a second, silent; a
# WebVTT file beside it carries the same words as captions.
set -euo pipefail
cd "$(dirname "$0")/media"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
bold=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
seconds_per_card=2.5

# clip <name> <title> <card>... : one title card, then one card per line.
clip() {
  local name=$1
  shift
  local cards=("$@")
  local count=${#cards[@]}
  local total
  total=$(echo "$count * $seconds_per_card" | bc)
  local work
  work=$(mktemp -d)
  local filters="drawbox=x=0:y=ih-12:w=iw:h=12:color=0xF2A900:t=fill"
  local vtt="WEBVTT"$'\n'
  for index in "${!cards[@]}"; do
    local start end
    start=$(echo "$index * $seconds_per_card" | bc)
    end=$(echo "($index + 1) * $seconds_per_card" | bc)
    printf '%s' "${cards[$index]}" >"$work/$index.txt"
    local face=$font size=30
    if [ "$index" = 0 ]; then face=$bold size=40; fi
    filters+=",drawtext=fontfile=$face:textfile=$work/$index.txt:fontcolor=white:fontsize=$size"
    filters+=":x=(w-text_w)/2:y=(h-text_h)/2:line_spacing=10:enable='between(t,$start,$end)'"
    vtt+=$'\n'"$(printf '00:00:%06.3f --> 00:00:%06.3f' "$start" "$end")"$'\n'"${cards[$index]}"$'\n'
  done
  filters+=",drawtext=fontfile=$font:text='Locus training':fontcolor=0xBFD3EA:fontsize=16:x=20:y=18"
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=c=0x0B2545:s=640x360:r=10:d=$total" \
    -vf "$filters" -c:v libx264 -preset veryslow -tune stillimage -crf 30 -pix_fmt yuv420p \
    -g 25 -movflags +faststart -an "$name.mp4"
  printf '%s' "$vtt" >"$name.vtt"
  rm -rf "$work"
}

clip locating-a-caller 'Locating a caller' \
  $'Type the caller\'s number\nand press Locate' \
  $'Locus tries an automatic\nlookup first' \
  $'If it fails, text the caller a link\nthat shares their location' \
  $'Follow the live location on the map,\nthen press End Tracking'
clip tracking-several-numbers 'Tracking several numbers' \
  $'Locate Numbers: type each number\nand press Enter' \
  $'Locate by List: text every number\nof a call list' \
  $'The Numbers panel shows each\ncaller\'s status and latest fix'
clip chat-and-case-transfer 'Chat and case transfer' \
  $'Chat with the caller: messages are\ntranslated into their language' \
  $'Transfer a live case to a colleague\non your team' \
  $'They accept it from any\nLocus screen they have open'
clip admin-users-teams-metrics $'For admins:\nusers, teams and metrics' \
  $'Add people to your team\nand choose their role' \
  $'Team settings: custom links,\nsign-in security and call lists' \
  $'TEAM | USER METRICS: searches,\ncase durations and accuracy'
