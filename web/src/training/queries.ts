import type { TrainingVideo, TrainingVideoList } from '@locus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../app/api';

export const trainingVideosKey = ['training', 'videos'] as const;

/** The deployment's training videos with the signed-in user's watched state. */
export function useTrainingVideos() {
  return useQuery({
    queryKey: trainingVideosKey,
    queryFn: async () => expect(await api.training.videos(), 200),
  });
}

/** Marks a video watched (`watched: true`) or not; the list is updated with the API's answer. */
export function useMarkWatched() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, watched }: { id: string; watched: boolean }) =>
      watched
        ? expect(await api.training.markWatched({ params: { id } }), 200)
        : expect(await api.training.markUnwatched({ params: { id } }), 200),
    onSuccess: (video: TrainingVideo) => {
      client.setQueryData<TrainingVideoList>(trainingVideosKey, (list) =>
        list ? { videos: list.videos.map((item) => (item.id === video.id ? video : item)) } : list,
      );
    },
  });
}
