{{- if .Values.ingress.enabled }}
{{- $timeout := .Values.ingress.websocketTimeoutSeconds | toString }}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "locus.fullname" . }}
  labels:
    {{- include "locus.labels" . | nindent 4 }}
  annotations:
    {{- $websocket := dict
      "nginx.ingress.kubernetes.io/proxy-read-timeout" $timeout
      "nginx.ingress.kubernetes.io/proxy-send-timeout" $timeout
      "nginx.ingress.kubernetes.io/proxy-http-version" "1.1"
      "nginx.ingress.kubernetes.io/proxy-body-size" "2m" }}
    {{- toYaml (merge (deepCopy .Values.ingress.annotations) $websocket) | nindent 4 }}
spec:
  {{- with .Values.ingress.className }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- if .Values.ingress.tlsSecretName }}
  tls:
    - hosts:
        - {{ required "ingress.host is required" .Values.ingress.host | quote }}
      secretName: {{ .Values.ingress.tlsSecretName }}
  {{- end }}
  rules:
    - host: {{ required "ingress.host is required" .Values.ingress.host | quote }}
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: {{ include "locus.fullname" . }}-api
                port:
                  name: http
{{- end }}
