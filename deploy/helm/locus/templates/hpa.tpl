{{- range $component := list "api" "worker" }}
{{- $values := index $.Values $component }}
{{- if $values.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "locus.fullname" $ }}-{{ $component }}
  labels:
    {{- include "locus.labels" $ | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "locus.fullname" $ }}-{{ $component }}
  minReplicas: {{ $values.autoscaling.minReplicas }}
  maxReplicas: {{ $values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $values.autoscaling.targetCPUUtilizationPercentage }}
  behavior:
    # Slowly, one pod at a time: scaling the API in moves every websocket of the removed pod,
    # and a worker going away hands its jobs back to the queue.
    scaleDown:
      stabilizationWindowSeconds: 600
      policies:
        - type: Pods
          value: 1
          periodSeconds: 300
{{- end }}
{{- end }}
