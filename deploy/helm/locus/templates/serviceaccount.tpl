{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "locus.serviceAccountName" . }}
  labels:
    {{- include "locus.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
# Locus never calls the Kubernetes API.
automountServiceAccountToken: false
{{- end }}
