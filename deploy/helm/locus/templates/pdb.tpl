{{- if .Values.api.podDisruptionBudget.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "locus.fullname" . }}-api
  labels:
    {{- include "locus.labels" . | nindent 4 }}
    app.kubernetes.io/component: api
spec:
  minAvailable: {{ .Values.api.podDisruptionBudget.minAvailable }}
  selector:
    matchLabels:
      {{- include "locus.selectorLabels" (list . "api") | nindent 6 }}
{{- end }}
{{- if .Values.worker.podDisruptionBudget.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "locus.fullname" . }}-worker
  labels:
    {{- include "locus.labels" . | nindent 4 }}
    app.kubernetes.io/component: worker
spec:
  maxUnavailable: {{ .Values.worker.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "locus.selectorLabels" (list . "worker") | nindent 6 }}
{{- end }}
