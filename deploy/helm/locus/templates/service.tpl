apiVersion: v1
kind: Service
metadata:
  name: {{ include "locus.fullname" . }}-api
  labels:
    {{- include "locus.labels" . | nindent 4 }}
    app.kubernetes.io/component: api
spec:
  type: {{ .Values.service.type }}
  selector:
    {{- include "locus.selectorLabels" (list . "api") | nindent 4 }}
  ports:
    - name: http
      port: {{ .Values.service.port }}
      targetPort: http
      protocol: TCP
