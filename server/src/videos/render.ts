// Renders a still image into an MP4 with ffmpeg: a slow pan or zoom over the image (the "motion"
// follows the model), H.264 in yuv420p with the index at the front so players start at once.
import { spawn } from "node:child_process";
import { chmod, rename, rm } from "node:fs/promises";
import type { VideoCreateRequest } from "@asset-delivery/sdk";
import { PRIVATE_FILE_MODE } from "../store/private-files";

export const VIDEO_FORMAT = { width: 640, height: 360, fps: 24 } as const;

/**
 * The largest image the renderer takes, checked from the image's header before ffmpeg runs: a
 * 24-megapixel camera photo (6000×4000) fits; decoding 25 megapixels peaks near 160 MB.
 */
export const MAX_IMAGE_SIZE = { side: 10_000, pixels: 25_000_000 } as const;

const RENDER_TIMEOUT_MS = 120_000;

/**
 * ffmpeg's bounds, whatever the image: two threads for decoding and encoding, one for the filters,
 * and an address-space limit (`ulimit -v`, set by the shell that execs ffmpeg, since Node's spawn
 * has no resource limits). 768 MiB is ~5× what a largest allowed image needs.
 */
const FFMPEG_THREADS = 2;
const FFMPEG_ADDRESS_SPACE_KIB = 768 * 1024;

type Model = VideoCreateRequest["model"];

/** zoompan expressions per model; `on` is the output frame number, `frames` the total. */
function motion(model: Model, frames: number): { z: string; x: string; y: string } {
  const centre = { x: "iw/2-(iw/zoom/2)", y: "ih/2-(ih/zoom/2)" };
  switch (model) {
    case "klingai":
      return { z: `1+0.25*on/${frames}`, ...centre };
    case "veo2":
      return { z: "1.2", x: `(iw-iw/zoom)*on/${frames}`, y: centre.y };
    case "veo3":
      return { z: `1.25-0.25*on/${frames}`, ...centre };
  }
}

export function ffmpegArguments(input: string, output: string, durationSeconds: number, model: Model): string[] {
  const { width, height, fps } = VIDEO_FORMAT;
  const frames = durationSeconds * fps;
  const m = motion(model, frames);
  // Upscale to twice the output first so the sub-pixel motion of zoompan does not judder.
  const filter = [
    `scale=${width * 2}:${height * 2}:force_original_aspect_ratio=increase`,
    `crop=${width * 2}:${height * 2}`,
    `zoompan=z='${m.z}':x='${m.x}':y='${m.y}':d=${frames}:s=${width}x${height}:fps=${fps}`,
    "format=yuv420p",
  ].join(",");
  return [
    ...["-nostdin", "-y", "-loglevel", "error", "-threads", String(FFMPEG_THREADS), "-i", input],
    ...["-filter_threads", "1", "-vf", filter, "-frames:v", String(frames), "-threads", String(FFMPEG_THREADS)],
    ...["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-an", "-f", "mp4", output],
  ];
}

/** Renders to `output` (written under a temporary name, then renamed). Rejects with ffmpeg's message. */
export async function renderVideo(
  input: string,
  output: string,
  durationSeconds: number,
  model: Model,
  signal?: AbortSignal,
): Promise<void> {
  const partial = `${output}.partial`;
  try {
    await runFfmpeg(ffmpegArguments(input, partial, durationSeconds, model), signal);
    await chmod(partial, PRIVATE_FILE_MODE); // ffmpeg creates it as the umask allows
    await rename(partial, output);
  } finally {
    await rm(partial, { force: true });
  }
}

function runFfmpeg(args: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // `sh -c 'ulimit -v N; exec "$0" "$@"' ffmpeg ...`: the limit applies to ffmpeg itself (exec), and
    // the arguments are passed as arguments, never parsed by the shell.
    const limited = ["-c", `ulimit -v ${FFMPEG_ADDRESS_SPACE_KIB} && exec "$0" "$@"`, "ffmpeg", ...args];
    const child = spawn("sh", limited, { stdio: ["ignore", "ignore", "pipe"], timeout: RENDER_TIMEOUT_MS, signal });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on("error", (error) => reject(error.name === "AbortError" ? error : new Error(`ffmpeg could not be started: ${error.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`ffmpeg ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}: ${stderr.trim().split("\n").pop() ?? ""}`),
        );
    });
  });
}
